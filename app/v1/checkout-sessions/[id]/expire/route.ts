import { parse } from '@/lib/api/parse';
import { apiRoute, ok, routes } from '@/lib/api/route';
import { expireCheckoutSession } from '@/lib/checkout-sessions/service';
import { z } from 'zod';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/checkout-sessions/{id}/expire – close an open session so it can no longer be paid
  POST: apiRoute(
    { scope: 'checkout_sessions:write', idempotency: 'optional', body: 'json-or-empty' },
    async ({ db, merchantId, params, body }) => {
      parse(z.strictObject({}), body);
      return ok(await expireCheckoutSession(db, merchantId, params.id));
    },
  ),
});
