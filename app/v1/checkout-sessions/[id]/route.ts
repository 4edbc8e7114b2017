import { apiRoute, routes } from '@/lib/http/route';
import { getCheckoutSessionOperation } from '@/lib/checkout-sessions/operations';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';
import { getCheckoutSessionOrThrow } from '@/lib/checkout-sessions/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getCheckoutSessionOperation, async ({ params, context }) =>
    serializeCheckoutSession(await getCheckoutSessionOrThrow(context, params.id), context.now),
  ),
});
