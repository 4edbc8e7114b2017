import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { createPaymentLinkOperation, listPaymentLinksOperation } from '@/lib/payment-links/operations';
import { serializePaymentLink } from '@/lib/payment-links/serialize';
import { createPaymentLink, listPaymentLinks } from '@/lib/payment-links/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createPaymentLinkOperation, async ({ db, merchantId, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePaymentLink);
    return serializePaymentLink(await createPaymentLink(db, merchantId, body, { claimKey }));
  }),
  GET: apiRoute(listPaymentLinksOperation, async ({ db, merchantId, query }) =>
    listObject(await listPaymentLinks(db, merchantId, query), serializePaymentLink),
  ),
});
