import { apiRoute, ok, routes } from '@/lib/api/route';
import { parsePayInput, payCheckoutSession } from '@/lib/payments/pay';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/test-helpers/checkout-sessions/{id}/pay – pay a session as a customer would on the hosted page
  POST: apiRoute(
    { scope: 'checkout_sessions:write', idempotency: 'required' },
    async ({ db, merchantId, params, body }) => {
      const { payment } = await payCheckoutSession(db, merchantId, params.id, parsePayInput(body));
      return ok(serializePayment(payment));
    },
  ),
});
