import { parse } from '@/lib/api/parse';
import { apiRoute, created, ok, routes } from '@/lib/api/route';
import { createPaymentLinkInput, listPaymentLinksQuery } from '@/lib/payment-links/schemas';
import { createPaymentLink, listPaymentLinks } from '@/lib/payment-links/service';
import { serializePaymentLink } from '@/lib/payment-links/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/payment-links – make a shareable link that sells a fixed amount with no code
  POST: apiRoute({ scope: 'payment_links:write', idempotency: 'required' }, async ({ db, merchantId, body }) => {
    const input = parse(createPaymentLinkInput, body);
    return created(serializePaymentLink(await createPaymentLink(db, merchantId, input)));
  }),
  // GET /v1/payment-links – list links, newest first (?active=true|false)
  GET: apiRoute({ scope: 'payment_links:read' }, async ({ db, merchantId, query }) =>
    ok(await listPaymentLinks(db, merchantId, parse(listPaymentLinksQuery, query))),
  ),
});
