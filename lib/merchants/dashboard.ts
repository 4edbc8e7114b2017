import type { RequestContext } from '@/lib/core/context';
import { findMerchantSettings } from './repository';

// Settings reads the signed-in merchant's connection: its name, websites, methods, refund policy and time zone.
// Its forms are dashboard-actions.ts.

export async function getSettings(context: RequestContext) {
  const { db: database, merchantId } = context;
  return findMerchantSettings(database, merchantId);
}
