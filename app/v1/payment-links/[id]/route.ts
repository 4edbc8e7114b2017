import { parse } from '@/lib/api/parse';
import { apiRoute, ok, routes } from '@/lib/api/route';
import { updatePaymentLinkInput } from '@/lib/payment-links/schemas';
import { getPaymentLinkOrThrow, updatePaymentLink } from '@/lib/payment-links/service';
import { serializePaymentLink } from '@/lib/payment-links/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/payment-links/{id} – read a link
  GET: apiRoute({ scope: 'payment_links:read' }, async ({ db, merchantId, params }) =>
    ok(serializePaymentLink(await getPaymentLinkOrThrow(db, merchantId, params.id))),
  ),
  // POST /v1/payment-links/{id} – turn a link on or off, or rename or redescribe it (never its price)
  POST: apiRoute(
    { scope: 'payment_links:write', idempotency: 'optional' },
    async ({ db, merchantId, params, body }) => {
      const input = parse(updatePaymentLinkInput, body);
      return ok(serializePaymentLink(await updatePaymentLink(db, merchantId, params.id, input)));
    },
  ),
});
