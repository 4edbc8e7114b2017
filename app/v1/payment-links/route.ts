import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { createPaymentLinkOperation, listPaymentLinksOperation } from '@/lib/payment-links/operations';
import { serializePaymentLink } from '@/lib/payment-links/serialize';
import { createPaymentLink, listPaymentLinks } from '@/lib/payment-links/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createPaymentLinkOperation, async ({ context, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePaymentLink);
    return answerOf(await createPaymentLink(context, body, { claimKey }), serializePaymentLink);
  }),
  GET: apiRoute(listPaymentLinksOperation, async ({ context, query }) =>
    listObject(await listPaymentLinks(context, query), serializePaymentLink),
  ),
});
