import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { completeRefundRequestOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { finishRefundNow } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(completeRefundRequestOperation, async ({ context, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    const finished = await finishRefundNow(context, params.id, { completed: true }, { claimKey });
    return answerOf(finished, serializeRefundRequest);
  }),
});
