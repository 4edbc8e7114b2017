import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { db } from '@/lib/db';
import { addWebsite, updateBusinessName } from './dashboard-actions';
import { approveWebsite, createMerchant, MAX_WEBSITES, renameMerchant, setPaymentMethods } from './service';
import { contextOf } from '@/test/context';

// The rules of a merchant's settings hold on every path (dashboard, CLI, sign-up), and are refused as ApiError.

describe('merchant rules', () => {
  it('approves at most MAX_WEBSITES websites, re-approving one it has', async () => {
    const client = await db();
    const hosts = Array.from({ length: MAX_WEBSITES }, (_, i) => `shop-${i}.example.com`);
    const { id } = await createMerchant(client, { name: 'Many Sites', hosts });
    expect(await approveWebsite(contextOf(client, id), 'SHOP-0.example.com')).toBe('shop-0.example.com');
    const refusal = await approveWebsite(contextOf(client, id), 'one-more.example.com').catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'host' });
    expect(await addWebsite(contextOf(client, id), 'one-more.example.com')).toMatchObject({
      status: 'error',
      fieldErrors: { host: `An account can approve up to ${MAX_WEBSITES} websites. Remove one first.` },
    });
    await expect(
      createMerchant(client, { name: 'Too Many', hosts: [...hosts, 'one-more.example.com'] }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'host' });
  });

  it('holds one business-name rule for creating, renaming and the dashboard form', async () => {
    const client = await db();
    const { id } = await createMerchant(client, { name: '  Corner Shop  ' });
    expect((await client.merchant.findUniqueOrThrow({ where: { id } })).name).toBe('Corner Shop');
    await expect(createMerchant(client, { name: ' ' })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'name',
      message: 'Enter your business name.',
    });
    await expect(renameMerchant(contextOf(client, id), 'x'.repeat(101))).rejects.toBeInstanceOf(ApiError);
    expect(await updateBusinessName(contextOf(client, id), '')).toMatchObject({
      status: 'error',
      fieldErrors: { name: 'Enter your business name.' },
    });
    expect(await updateBusinessName(contextOf(client, id), ' New Name ')).toMatchObject({ status: 'ok' });
    expect((await client.merchant.findUniqueOrThrow({ where: { id } })).name).toBe('New Name');
  });

  it('refuses with ApiError, not a plain Error', async () => {
    const client = await db();
    const { id } = await createMerchant(client, { name: 'Errors Shop' });
    await expect(approveWebsite(contextOf(client, id), 'https://x.test/')).rejects.toMatchObject({
      code: 'parameter_invalid',
    });
    await expect(setPaymentMethods(contextOf(client, id), [])).rejects.toBeInstanceOf(ApiError);
  });
});
