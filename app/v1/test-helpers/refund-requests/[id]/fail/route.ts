import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { failRefundRequestOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { finishRefundNow, TEST_HELPER_FAILURE_REASON } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(failRefundRequestOperation, async ({ context, params, body, keyClaimingWrite }) => {
    const failureReason = body.failure_reason ?? TEST_HELPER_FAILURE_REASON;
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    return answerOf(await finishRefundNow(context, params.id, { failureReason }, { claimKey }), serializeRefundRequest);
  }),
});
