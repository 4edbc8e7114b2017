import type { Prisma, PrismaClient } from '@/lib/generated/prisma/client';
import { connectionTime } from './clock';
import { newId } from './ids';

/**
 * What a service acts with, passed to it explicitly: the database (or the transaction) to use, the merchant it
 * acts for, the connection's time and the id of the request (or job) that asked. Built in three places: the /v1
 * wrapper (lib/http/route.ts), the dashboard's session (lib/auth/session.ts) and the hosted pages, which act for
 * a session's merchant, and the worker (lib/jobs/worker.ts), once per job and merchant.
 */
export type RequestContext = {
  db: PrismaClient | Prisma.TransactionClient;
  merchantId: string;
  /** the connection's time: the wall clock plus the merchant's test clock offset (lib/test-clocks) */
  now: Date;
  requestId: string;
};

/** A merchant's context at its connection's time now. */
export function connectionContext(
  db: RequestContext['db'],
  merchantId: string,
  clockOffsetSeconds: number,
  requestId: string = newId('request'),
): RequestContext {
  return { db, merchantId, now: connectionTime(clockOffsetSeconds), requestId };
}

/**
 * For work whose merchant is known only once a row is read: a worker's job over many merchants' rows, or a
 * hosted page, which acts for the merchant of the session or link it shows. `of` builds each merchant's context.
 */
export type MerchantContexts = {
  db: RequestContext['db'];
  of: (merchantId: string, clockOffsetSeconds: number) => RequestContext;
};

export function merchantContexts(db: RequestContext['db']): MerchantContexts {
  return { db, of: (merchantId, clockOffsetSeconds) => connectionContext(db, merchantId, clockOffsetSeconds) };
}
