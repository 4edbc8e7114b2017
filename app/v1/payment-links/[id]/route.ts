import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { getPaymentLinkOperation, updatePaymentLinkOperation } from '@/lib/payment-links/operations';
import { serializePaymentLink } from '@/lib/payment-links/serialize';
import { getPaymentLinkOrThrow, updatePaymentLink } from '@/lib/payment-links/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getPaymentLinkOperation, async ({ context, params }) =>
    serializePaymentLink(await getPaymentLinkOrThrow(context, params.id)),
  ),
  POST: apiRoute(updatePaymentLinkOperation, async ({ context, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePaymentLink);
    return answerOf(await updatePaymentLink(context, params.id, body, { claimKey }), serializePaymentLink);
  }),
});
