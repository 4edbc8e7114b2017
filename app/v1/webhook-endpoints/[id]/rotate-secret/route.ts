import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { rotateWebhookSecretOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpointWithSecret } from '@/lib/webhooks/serialize';
import { rotateWebhookSecret } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(rotateWebhookSecretOperation, async ({ context, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeWebhookEndpointWithSecret);
    return answerOf(await rotateWebhookSecret(context, params.id, { claimKey }), serializeWebhookEndpointWithSecret);
  }),
});
