import type { RequestContext } from '@/lib/core/context';
import { EVENT_TYPES } from '@/lib/events/types';
import { isId } from '@/lib/core/ids';
import { PAGE_SIZE } from '@/lib/dashboard/list-params';
import {
  countAndFindEndpointDeliveries,
  countRecentDeliveriesByStatus,
  findEndpoint,
  findEndpoints,
} from './repository';

// Developers → Webhooks: endpoints with their recent delivery health, and one endpoint's deliveries and
// attempts, scoped by the merchant. Its forms are dashboard-actions.ts.

export { EVENT_TYPES };

export async function listEndpointsWithHealth(context: RequestContext) {
  const { db: database, merchantId } = context;
  const endpoints = await findEndpoints(database, merchantId);
  const since = new Date(Date.now() - 7 * 86_400_000);
  const counts = endpoints.length
    ? // health is of real deliveries; a test send shows on the endpoint's page
      await countRecentDeliveriesByStatus(
        database,
        endpoints.map((endpoint) => endpoint.id),
        since,
      )
    : [];
  return endpoints.map((endpoint) => {
    const of = (status: string) =>
      counts.find((row) => row.endpointId === endpoint.id && row.status === status)?._count._all ?? 0;
    return { ...endpoint, recent: { succeeded: of('succeeded'), pending: of('pending'), failed: of('failed') } };
  });
}

/** An endpoint and a page of its deliveries, each with its attempts; null when not this merchant's. */
export async function getEndpointDetail(context: RequestContext, endpointId: string, page: number) {
  const { db: database, merchantId } = context;
  if (!isId('webhookEndpoint', endpointId)) return null;
  const endpoint = await findEndpoint(database, merchantId, endpointId);
  if (!endpoint) return null;
  const { total, deliveries } = await countAndFindEndpointDeliveries(database, endpoint.id, {
    skip: (page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
  });
  return { endpoint, total, deliveries };
}
