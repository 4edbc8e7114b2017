import { apiRoute, routes } from '@/lib/http/route';
import { getPaymentLinkOperation, updatePaymentLinkOperation } from '@/lib/payment-links/operations';
import { serializePaymentLink } from '@/lib/payment-links/serialize';
import { getPaymentLinkOrThrow, updatePaymentLink } from '@/lib/payment-links/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getPaymentLinkOperation, async ({ db, merchantId, params }) =>
    serializePaymentLink(await getPaymentLinkOrThrow(db, merchantId, params.id)),
  ),
  POST: apiRoute(updatePaymentLinkOperation, async ({ db, merchantId, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePaymentLink);
    return serializePaymentLink(await updatePaymentLink(db, merchantId, params.id, body, { claimKey }));
  }),
});
