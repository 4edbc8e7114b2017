import { apiRoute, ok, routes } from '@/lib/api/route';
import { getCheckoutSessionOrThrow } from '@/lib/checkout-sessions/service';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/checkout-sessions/{id} – read a session (its status is current even before the expiry sweep)
  GET: apiRoute({ scope: 'payments:read' }, async ({ db, merchantId, params }) =>
    ok(serializeCheckoutSession(await getCheckoutSessionOrThrow(db, merchantId, params.id))),
  ),
});
