import { apiRoute, routes } from '@/lib/http/route';
import { capturePayment } from '@/lib/payments/capture';
import { capturePaymentOperation } from '@/lib/payments/operations';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(capturePaymentOperation, async ({ db, merchantId, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePayment);
    return serializePayment(await capturePayment(db, merchantId, params.id, body, { claimKey }));
  }),
});
