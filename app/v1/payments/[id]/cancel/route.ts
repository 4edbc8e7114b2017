import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { cancelPayment } from '@/lib/payments/capture';
import { cancelPaymentOperation } from '@/lib/payments/operations';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(cancelPaymentOperation, async ({ context, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePayment);
    return answerOf(await cancelPayment(context, params.id, { claimKey }), serializePayment);
  }),
});
