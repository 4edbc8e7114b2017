import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { createCheckoutSessionOperation, listCheckoutSessionsOperation } from '@/lib/checkout-sessions/operations';
import { serializeCheckoutSession, type CheckoutSessionWithItems } from '@/lib/checkout-sessions/serialize';
import { createCheckoutSession, listCheckoutSessions } from '@/lib/checkout-sessions/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createCheckoutSessionOperation, async ({ context, body, keyClaimingWrite }) => {
    const serialize = (session: CheckoutSessionWithItems) => serializeCheckoutSession(session, context.now);
    const claimKey = keyClaimingWrite?.answering(serialize);
    return answerOf(await createCheckoutSession(context, body, { claimKey }), serialize);
  }),
  GET: apiRoute(listCheckoutSessionsOperation, async ({ context, query }) =>
    listObject(await listCheckoutSessions(context, query), (session) => serializeCheckoutSession(session, context.now)),
  ),
});
