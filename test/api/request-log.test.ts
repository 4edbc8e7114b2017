import { describe, expect, it } from 'vitest';
import { listApiRequestLogs } from '@/lib/api-logs/service';
import { db } from '@/lib/db';
import { apiClient, createTestMerchant, eventually, sessionBody } from '../helpers';

describe('the /v1 request log', () => {
  it("records each authenticated request for its merchant, without bodies or keys", async () => {
    const merchant = await createTestMerchant();
    const api = apiClient(merchant.key);
    const created = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'log-me' });
    const refused = await api.get('/v1/payments/pay_000000000000000000000000');
    await apiClient().get('/v1/payments'); // unauthenticated: belongs to no merchant

    const client = await db();
    const logs = await eventually(
      () => listApiRequestLogs(client, merchant.merchantId, { limit: 10 }),
      (page) => page.data.length >= 2,
    );
    expect(logs.data).toHaveLength(2);
    const [second, first] = logs.data;
    expect(first).toMatchObject({ method: 'POST', path: '/v1/checkout-sessions', status: 201, idempotencyKey: 'log-me', requestId: created.headers.get('request-id') });
    expect(second).toMatchObject({ method: 'GET', path: '/v1/payments/pay_000000000000000000000000', status: 404, idempotencyKey: null, requestId: refused.headers.get('request-id') });
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(logs.data, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(merchant.key);
  });
});
