import { listObject } from '@/lib/api/pagination';
import { apiRoute, routes } from '@/lib/api/route';
import { createWebhookEndpointOperation, listWebhookEndpointsOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { createWebhookEndpoint, listWebhookEndpoints } from '@/lib/webhooks/service';

const withSecret = (endpoint: Parameters<typeof serializeWebhookEndpoint>[0]) =>
  serializeWebhookEndpoint(endpoint, { withSecret: true });

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(
    createWebhookEndpointOperation,
    async ({ db, merchantId, body, keyClaimingWrite }) => {
      const claimKey = keyClaimingWrite?.answering(withSecret);
      return withSecret(await createWebhookEndpoint(db, merchantId, body, { claimKey }));
    },
    { claimsKeyInWrite: true },
  ),
  GET: apiRoute(listWebhookEndpointsOperation, async ({ db, merchantId, query }) =>
    listObject(await listWebhookEndpoints(db, merchantId, query), (endpoint) => serializeWebhookEndpoint(endpoint)),
  ),
});
