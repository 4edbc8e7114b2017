import { describe, expect, it } from 'vitest';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';

describe('smoke', () => {
  it('creates a session', async () => {
    const { key } = await createTestMerchant();
    const res = await apiClient(key).post('/v1/checkout-sessions', sessionBody());
    expect(res.status).toBe(201);
  });
});
