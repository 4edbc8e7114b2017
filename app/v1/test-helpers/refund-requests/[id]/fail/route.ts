import { apiRoute, routes } from '@/lib/http/route';
import { failRefundRequestOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { finishRefundNow, TEST_HELPER_FAILURE_REASON } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(failRefundRequestOperation, async ({ db, merchantId, params, body, keyClaimingWrite }) => {
    const failureReason = body.failure_reason ?? TEST_HELPER_FAILURE_REASON;
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    return serializeRefundRequest(await finishRefundNow(db, merchantId, params.id, { failureReason }, { claimKey }));
  }),
});
