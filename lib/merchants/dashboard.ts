import type { Db } from '@/lib/db';
import { findMerchantSettings } from './repository';

// Settings reads the signed-in merchant's connection: its name, websites, methods, refund policy and time zone.
// Its forms are dashboard-actions.ts.

export async function getSettings(database: Db, merchantId: string) {
  return findMerchantSettings(database, merchantId);
}
