import { apiRoute, routes } from '@/lib/api/route';
import { rotateWebhookSecretOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { rotateWebhookSecret } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(rotateWebhookSecretOperation, async ({ db, merchantId, params }) =>
    serializeWebhookEndpoint(await rotateWebhookSecret(db, merchantId, params.id), { withSecret: true }),
  ),
});
