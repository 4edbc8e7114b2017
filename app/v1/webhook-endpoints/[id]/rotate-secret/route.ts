import { apiRoute, routes } from '@/lib/http/route';
import { rotateWebhookSecretOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpointWithSecret } from '@/lib/webhooks/serialize';
import { rotateWebhookSecret } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(rotateWebhookSecretOperation, async ({ db, merchantId, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeWebhookEndpointWithSecret);
    return serializeWebhookEndpointWithSecret(await rotateWebhookSecret(db, merchantId, params.id, { claimKey }));
  }),
});
