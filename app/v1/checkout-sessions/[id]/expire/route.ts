import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { expireCheckoutSessionOperation } from '@/lib/checkout-sessions/operations';
import { serializeCheckoutSession, type CheckoutSessionWithItems } from '@/lib/checkout-sessions/serialize';
import { expireCheckoutSession } from '@/lib/checkout-sessions/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(expireCheckoutSessionOperation, async ({ context, params, keyClaimingWrite }) => {
    const serialize = (session: CheckoutSessionWithItems) => serializeCheckoutSession(session, context.now);
    const claimKey = keyClaimingWrite?.answering(serialize);
    return answerOf(await expireCheckoutSession(context, params.id, { claimKey }), serialize);
  }),
});
