import { z } from 'zod';
import { parse } from '@/lib/api/parse';
import { apiRoute, ok, routes } from '@/lib/api/route';
import { cancelRefundRequest } from '@/lib/refunds/service';
import { serializeRefundRequest } from '@/lib/refunds/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/refund-requests/{id}/cancel – withdraw a refund that has not been authorized yet
  POST: apiRoute(
    { scope: 'refund_requests:write', idempotency: 'optional', body: 'json-or-empty' },
    async ({ db, merchantId, params, body }) => {
      parse(z.strictObject({}), body);
      return ok(serializeRefundRequest(await cancelRefundRequest(db, merchantId, params.id)));
    },
  ),
});
