import { apiRoute, created, ok, routes } from '@/lib/api/route';
import { parse } from '@/lib/api/parse';
import { createCheckoutSessionInput, listCheckoutSessionsQuery } from '@/lib/checkout-sessions/schemas';
import { createCheckoutSession, listCheckoutSessions } from '@/lib/checkout-sessions/service';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/checkout-sessions – start a hosted checkout for an order
  POST: apiRoute({ scope: 'checkout_sessions:write', idempotency: 'required' }, async ({ db, merchantId, body }) => {
    const input = parse(createCheckoutSessionInput, body);
    return created(serializeCheckoutSession(await createCheckoutSession(db, merchantId, input)));
  }),
  // GET /v1/checkout-sessions – list sessions, newest first
  GET: apiRoute({ scope: 'payments:read' }, async ({ db, merchantId, query }) =>
    ok(await listCheckoutSessions(db, merchantId, parse(listCheckoutSessionsQuery, query))),
  ),
});
