import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { payCheckoutSessionOperation } from '@/lib/payments/operations';
import { payCheckoutSession } from '@/lib/payments/pay';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(payCheckoutSessionOperation, async ({ context, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePayment);
    const paid = await payCheckoutSession(context, params.id, body, { claimKey });
    return answerOf(paid, ({ payment }) => serializePayment(payment));
  }),
});
