import { apiRoute, routes } from '@/lib/http/route';
import { payCheckoutSessionOperation } from '@/lib/payments/operations';
import { payCheckoutSession } from '@/lib/payments/pay';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(payCheckoutSessionOperation, async ({ db, merchantId, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePayment);
    return serializePayment((await payCheckoutSession(db, merchantId, params.id, body, { claimKey })).payment);
  }),
});
