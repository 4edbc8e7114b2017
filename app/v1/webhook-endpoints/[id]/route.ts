import { apiRoute, routes } from '@/lib/api/route';
import { deleteWebhookEndpointOperation, getWebhookEndpointOperation } from '@/lib/webhooks/operations';
import { serializeDeletedWebhookEndpoint, serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { deleteWebhookEndpoint, getWebhookEndpointOrThrow } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getWebhookEndpointOperation, async ({ db, merchantId, params }) =>
    serializeWebhookEndpoint(await getWebhookEndpointOrThrow(db, merchantId, params.id)),
  ),
  DELETE: apiRoute(deleteWebhookEndpointOperation, async ({ db, merchantId, params }) => {
    await deleteWebhookEndpoint(db, merchantId, params.id);
    return serializeDeletedWebhookEndpoint(params.id);
  }),
});
