import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { capturePayment } from '@/lib/payments/capture';
import { capturePaymentOperation } from '@/lib/payments/operations';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(capturePaymentOperation, async ({ context, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePayment);
    return answerOf(await capturePayment(context, params.id, body, { claimKey }), serializePayment);
  }),
});
