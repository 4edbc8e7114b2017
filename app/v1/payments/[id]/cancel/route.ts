import { apiRoute, routes } from '@/lib/http/route';
import { cancelPayment } from '@/lib/payments/capture';
import { cancelPaymentOperation } from '@/lib/payments/operations';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(cancelPaymentOperation, async ({ db, merchantId, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializePayment);
    return serializePayment(await cancelPayment(db, merchantId, params.id, { claimKey }));
  }),
});
