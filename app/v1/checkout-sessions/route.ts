import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { createCheckoutSessionOperation, listCheckoutSessionsOperation } from '@/lib/checkout-sessions/operations';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';
import { createCheckoutSession, listCheckoutSessions } from '@/lib/checkout-sessions/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createCheckoutSessionOperation, async ({ db, merchantId, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeCheckoutSession);
    return serializeCheckoutSession(await createCheckoutSession(db, merchantId, body, { claimKey }));
  }),
  GET: apiRoute(listCheckoutSessionsOperation, async ({ db, merchantId, query }) =>
    listObject(await listCheckoutSessions(db, merchantId, query), serializeCheckoutSession),
  ),
});
