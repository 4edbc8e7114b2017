import { parse } from '@/lib/api/parse';
import { apiRoute, created, ok, routes } from '@/lib/api/route';
import { createWebhookEndpointInput, listWebhookEndpointsQuery } from '@/lib/webhooks/schemas';
import { serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { createWebhookEndpoint, listWebhookEndpoints } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/webhook-endpoints – subscribe a URL to events; the answer carries the signing secret, once
  POST: apiRoute({ scope: 'webhook_endpoints:write', idempotency: 'required' }, async ({ db, merchantId, body }) => {
    const input = parse(createWebhookEndpointInput, body);
    return created(serializeWebhookEndpoint(await createWebhookEndpoint(db, merchantId, input), { withSecret: true }));
  }),
  // GET /v1/webhook-endpoints – list webhook endpoints, newest first, without secrets
  GET: apiRoute({ scope: 'webhook_endpoints:write' }, async ({ db, merchantId, query }) =>
    ok(await listWebhookEndpoints(db, merchantId, parse(listWebhookEndpointsQuery, query))),
  ),
});
