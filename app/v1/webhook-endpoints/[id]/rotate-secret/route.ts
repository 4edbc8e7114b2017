import { z } from 'zod';
import { parse } from '@/lib/api/parse';
import { apiRoute, ok, routes } from '@/lib/api/route';
import { serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { rotateWebhookSecret } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/webhook-endpoints/{id}/rotate-secret – a new secret, shown once; the old one signs beside it for 24 h
  POST: apiRoute(
    { scope: 'webhook_endpoints:write', idempotency: 'optional', body: 'json-or-empty' },
    async ({ db, merchantId, params, body }) => {
      parse(z.strictObject({}), body);
      return ok(serializeWebhookEndpoint(await rotateWebhookSecret(db, merchantId, params.id), { withSecret: true }));
    },
  ),
});
