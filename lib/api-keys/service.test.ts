import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { SCOPES } from './scopes';
import { createApiKey, findActiveApiKey, listApiKeys, revokeApiKey } from './service';
import { contextOf } from '@/test/context';

describe('API keys', () => {
  it('refuses a malformed key with ApiError, finds an active one and stops finding it once revoked', async () => {
    const client = await db();
    const { id: merchantId } = await createMerchant(client, { name: 'Key Shop' });
    await expect(
      createApiKey(contextOf(client, merchantId), [...SCOPES], { key: 'sk_sandbox_short' }),
    ).rejects.toBeInstanceOf(ApiError);
    const created = await createApiKey(contextOf(client, merchantId), ['payments:read']);
    expect(await findActiveApiKey(created.key)).toEqual({
      id: created.id,
      merchantId,
      scopes: ['payments:read'],
      clockOffsetSeconds: 0,
    });
    expect((await listApiKeys(contextOf(client, merchantId))).map((key) => key.id)).toEqual([created.id]);
    expect(await revokeApiKey(contextOf(client, 'acct_other'), created.id)).toBe(false);
    expect(await revokeApiKey(contextOf(client, merchantId), created.id)).toBe(true);
    expect(await findActiveApiKey(created.key)).toBeNull();
  });
});
