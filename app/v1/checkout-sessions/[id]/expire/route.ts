import { apiRoute, routes } from '@/lib/http/route';
import { expireCheckoutSessionOperation } from '@/lib/checkout-sessions/operations';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';
import { expireCheckoutSession } from '@/lib/checkout-sessions/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(expireCheckoutSessionOperation, async ({ db, merchantId, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeCheckoutSession);
    return serializeCheckoutSession(await expireCheckoutSession(db, merchantId, params.id, { claimKey }));
  }),
});
