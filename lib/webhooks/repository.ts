import { z } from 'zod';
import { NEWEST_FIRST } from '@/lib/core/pagination';
import type { Db } from '@/lib/db';
import { countLimit } from '@/lib/db/page';
import { Prisma, type WebhookDeliveryStatus, type WebhookEndpoint } from '@/lib/generated/prisma/client';
import { cte, params, permitted, sql as statementSql, write } from '@/lib/db/statement';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  runClaimableChange,
  runWriteClaimingKey,
  withKeyClaim,
} from '@/lib/idempotency/repository';
import {
  claimOnEachClock,
  connectionNowSql,
  dueOn,
  merchantNowSql,
  onEachClock,
  type QueueClocks,
} from '@/lib/test-clocks/repository';

// Every query on webhook_endpoints, webhook_deliveries and webhook_attempts. The delivery queue's
// claims and the secret rotation are single statements (deliver.ts says why for the claims).

// ---- endpoints

export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  | 'id'
  | 'merchantId'
  | 'url'
  | 'description'
  | 'events'
  | 'secret'
  | 'createdAt'
  | 'faultDuplicateRate'
  | 'faultDelaySeconds'
  | 'faultShuffle'
  | 'faultSeed'
>;

export async function insertEndpoint(database: Db, endpoint: NewWebhookEndpoint) {
  return database.webhookEndpoint.create({ data: endpoint });
}

type EndpointValues = {
  endpointId: string;
  merchantId: string;
  url: string;
  description: string | null;
  events: string[];
  secret: string;
  createdAt: Date;
  faultDuplicateRate: number;
  faultDelaySeconds: number;
  faultShuffle: boolean;
  faultSeed: string | null;
};

const n = params<EndpointValues>({
  endpointId: 'text',
  merchantId: 'text',
  url: 'text',
  description: 'text',
  events: 'text[]',
  secret: 'text',
  createdAt: 'timestamptz',
  faultDuplicateRate: 'float8',
  faultDelaySeconds: 'int4',
  faultShuffle: 'bool',
  faultSeed: 'int8',
});

const INSERT_ENDPOINT = withKeyClaim(
  write<EndpointValues>({
    name: 'insert-webhook-endpoint',
    writes: [
      cte(
        'inserted',
        statementSql`
        INSERT INTO "webhook_endpoints" ("id", "merchant_id", "url", "description", "events", "secret", "created_at",
          "fault_duplicate_rate", "fault_delay_seconds", "fault_shuffle", "fault_seed")
        SELECT ${n.endpointId}, ${n.merchantId}, ${n.url}, ${n.description}, ${n.events}, ${n.secret}, ${n.createdAt},
               ${n.faultDuplicateRate}, ${n.faultDelaySeconds}, ${n.faultShuffle}, ${n.faultSeed}
        FROM ${permitted}`,
      ),
    ],
  }),
);

/** insertEndpoint with the key's claim, in one statement: the claim's outcome. */
export async function insertEndpointClaimingKey(
  database: Db,
  endpoint: NewWebhookEndpoint,
  claim: ClaimWithAnswer,
): Promise<ClaimOutcome> {
  const values: EndpointValues = {
    endpointId: endpoint.id,
    merchantId: endpoint.merchantId,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    secret: endpoint.secret,
    createdAt: endpoint.createdAt,
    faultDuplicateRate: endpoint.faultDuplicateRate,
    faultDelaySeconds: endpoint.faultDelaySeconds,
    faultShuffle: endpoint.faultShuffle,
    faultSeed: endpoint.faultSeed === null ? null : String(endpoint.faultSeed),
  };
  const result = await runWriteClaimingKey(database, INSERT_ENDPOINT, values, claim);
  if ('refused' in result) throw new Error(`an insert of a webhook endpoint was refused: ${result.refused}`);
  return result.outcome;
}

/** The merchant's endpoint unless deleted. */
export async function findEndpoint(database: Db, merchantId: string, id: string) {
  return database.webhookEndpoint.findFirst({ where: { id, merchantId, deletedAt: null } });
}

/** The cursor of the API's list: the merchant's live endpoint's id and creation time. */
export async function findEndpointCursor(database: Db, merchantId: string, id: string) {
  return database.webhookEndpoint.findFirst({
    where: { id, merchantId, deletedAt: null },
    select: { id: true, createdAt: true },
  });
}

/** A page of the API's list, newest first; `page.where` is the pagination's own condition. */
export async function findEndpointsPage(database: Db, merchantId: string, page: { where: object; take: number }) {
  return database.webhookEndpoint.findMany({
    where: { AND: [{ merchantId, deletedAt: null }, page.where] },
    orderBy: NEWEST_FIRST,
    take: page.take,
  });
}

/** Every live endpoint of the merchant, newest first (the dashboard's list). */
export async function findEndpoints(database: Db, merchantId: string) {
  return database.webhookEndpoint.findMany({
    where: { merchantId, deletedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Marks the endpoint deleted and disabled, only if it is the merchant's and live; false when it was not. */
/**
 * Deletes the endpoint (kept, with deleted_at, so its delivery log survives) and ends its pending deliveries
 * as failed, in one statement. False when it is not the merchant's, or deleted already.
 */
export async function deleteEndpointEndingDeliveries(
  database: Db,
  merchantId: string,
  id: string,
  at: Date,
): Promise<boolean> {
  const [row] = await database.$queryRaw<unknown[]>`
    WITH deleted AS (
      UPDATE "webhook_endpoints" SET "deleted_at" = ${at}, "status" = 'disabled'
      WHERE "id" = ${id} AND "merchant_id" = ${merchantId} AND "deleted_at" IS NULL
      RETURNING "id"
    ), ended AS (
      UPDATE "webhook_deliveries" AS d SET "status" = 'failed', "next_attempt_at" = NULL
      FROM deleted WHERE d."endpoint_id" = deleted."id" AND d."status" = 'pending'
    )
    SELECT EXISTS (SELECT 1 FROM deleted) AS "deleted"`;
  return z.object({ deleted: z.boolean() }).parse(row).deleted;
}

// Rotating a secret in one statement, the Idempotency-Key's claim with the answer too when the request sent
// one. The right-hand "secret" is the value before the update, so two rotations at once each retire the
// secret they replaced.
type RotateValues = { endpointId: string; merchantId: string; secret: string; previousExpiresAt: Date };

const rotate = params<RotateValues>({
  endpointId: 'text',
  merchantId: 'text',
  secret: 'text',
  previousExpiresAt: 'timestamptz',
});

const rotated = cte(
  'changed',
  statementSql`
  UPDATE "webhook_endpoints"
  SET "previous_secret" = "secret", "previous_secret_expires_at" = ${rotate.previousExpiresAt}, "secret" = ${rotate.secret}
  FROM ${permitted}
  WHERE "webhook_endpoints"."id" = ${rotate.endpointId} AND "merchant_id" = ${rotate.merchantId} AND "deleted_at" IS NULL
  RETURNING "webhook_endpoints"."id"`,
);

const ROTATE_SECRET = withKeyClaim(
  write<RotateValues, 'resource_missing'>({
    name: 'rotate-webhook-secret',
    writes: [rotated],
    refusals: [{ reason: 'resource_missing', when: statementSql`NOT EXISTS (SELECT 1 FROM ${rotated})` }],
  }),
);

/**
 * A new secret for the endpoint, the old one kept beside it until `previousExpiresAt`; with `claim`, claims
 * the request's Idempotency-Key with the answer too. Returns whether it rotated (with `claim`: the claim's
 * outcome, or 'resource_missing' when the endpoint is deleted and nothing was written).
 */
export async function rotateEndpointSecret(
  database: Db,
  endpoint: { id: string; merchantId: string; newSecret: string; previousExpiresAt: Date },
  claim?: ClaimWithAnswer,
) {
  const values = {
    endpointId: endpoint.id,
    merchantId: endpoint.merchantId,
    secret: endpoint.newSecret,
    previousExpiresAt: endpoint.previousExpiresAt,
  };
  return runClaimableChange(database, ROTATE_SECRET, values, claim);
}

// Updating an endpoint in one statement (with the Idempotency-Key's claim when the request sent one). Only
// the fields the request gave change (a null value keeps a column), so two partial updates at once do not undo
// each other. Setting the seed numbers the deliveries from 1 again (fault_sequence); a new delay_seconds
// moves the first attempts not yet made to their event's created_at plus the new delay.
type UpdateEndpointValues = {
  endpointId: string;
  merchantId: string;
  url: string | null;
  events: string[] | null;
  setsDescription: boolean;
  description: string | null;
  status: 'enabled' | 'disabled' | null;
  faultDuplicateRate: number | null;
  faultDelaySeconds: number | null;
  faultShuffle: boolean | null;
  setsFaultSeed: boolean;
  faultSeed: string | null;
};

const e = params<UpdateEndpointValues>({
  endpointId: 'text',
  merchantId: 'text',
  url: 'text',
  events: 'text[]',
  setsDescription: 'boolean',
  description: 'text',
  status: '"WebhookEndpointStatus"',
  faultDuplicateRate: 'float8',
  faultDelaySeconds: 'int4',
  faultShuffle: 'boolean',
  setsFaultSeed: 'boolean',
  faultSeed: 'int8',
});

const updated = cte(
  'changed',
  statementSql`
  UPDATE "webhook_endpoints" AS e
  SET "url" = COALESCE(${e.url}, e."url"),
      "events" = COALESCE(${e.events}, e."events"),
      "description" = CASE WHEN ${e.setsDescription} THEN ${e.description} ELSE e."description" END,
      "status" = COALESCE(${e.status}, e."status"),
      "fault_duplicate_rate" = COALESCE(${e.faultDuplicateRate}, e."fault_duplicate_rate"),
      "fault_delay_seconds" = COALESCE(${e.faultDelaySeconds}, e."fault_delay_seconds"),
      "fault_shuffle" = COALESCE(${e.faultShuffle}, e."fault_shuffle"),
      "fault_seed" = CASE WHEN ${e.setsFaultSeed} THEN ${e.faultSeed} ELSE e."fault_seed" END,
      "fault_sequence" = CASE WHEN ${e.setsFaultSeed} THEN 0 ELSE e."fault_sequence" END
  FROM ${permitted}
  WHERE e."id" = ${e.endpointId} AND e."merchant_id" = ${e.merchantId} AND e."deleted_at" IS NULL
  RETURNING e."id", e."fault_delay_seconds"`,
);

const UPDATE_ENDPOINT = withKeyClaim(
  write<UpdateEndpointValues, 'resource_missing'>({
    name: 'update-webhook-endpoint',
    writes: [
      updated,
      cte(
        'moved',
        statementSql`
        UPDATE "webhook_deliveries" AS d
        SET "next_attempt_at" = ev."created_at" + make_interval(secs => c."fault_delay_seconds")
        FROM ${updated} AS c, "events" AS ev
        WHERE ${e.faultDelaySeconds} IS NOT NULL AND d."endpoint_id" = c."id" AND d."status" = 'pending'
          AND d."attempt_count" = 0 AND ev."id" = d."event_id"`,
      ),
    ],
    refusals: [{ reason: 'resource_missing', when: statementSql`NOT EXISTS (SELECT 1 FROM ${updated})` }],
  }),
);

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [
  INSERT_ENDPOINT.statement,
  ...[ROTATE_SECRET, UPDATE_ENDPOINT].flatMap((one) => [one.write.plain, one.statement]),
];

export type EndpointChange = {
  id: string;
  merchantId: string;
  url?: string;
  events?: string[];
  /** undefined keeps it; null clears it */
  description?: string | null;
  status?: 'enabled' | 'disabled';
  faultDuplicateRate?: number;
  faultDelaySeconds?: number;
  faultShuffle?: boolean;
  /** undefined keeps it; a value or null sets it, numbering the deliveries from 1 again */
  faultSeed?: number | null;
};

/**
 * Changes the given fields of the merchant's live endpoint; with `claim`, claims the request's
 * Idempotency-Key with the answer too. Returns whether it changed (with `claim`: the claim's outcome, or
 * 'resource_missing' when the endpoint is gone and nothing was written).
 */
export async function updateEndpoint(database: Db, change: EndpointChange, claim?: ClaimWithAnswer) {
  const values: UpdateEndpointValues = {
    endpointId: change.id,
    merchantId: change.merchantId,
    url: change.url ?? null,
    events: change.events ?? null,
    setsDescription: change.description !== undefined,
    description: change.description ?? null,
    status: change.status ?? null,
    faultDuplicateRate: change.faultDuplicateRate ?? null,
    faultDelaySeconds: change.faultDelaySeconds ?? null,
    faultShuffle: change.faultShuffle ?? null,
    setsFaultSeed: change.faultSeed !== undefined,
    faultSeed: change.faultSeed === undefined || change.faultSeed === null ? null : String(change.faultSeed),
  };
  return runClaimableChange(database, UPDATE_ENDPOINT, values, claim);
}

// ---- deliveries

/** A test send, logged already finished with its one attempt. */
export async function insertFinishedDelivery(
  database: Db,
  delivery: { id: string; eventType: string; endpointId: string; status: WebhookDeliveryStatus; lastAttemptAt: Date },
) {
  return database.webhookDelivery.create({
    data: { ...delivery, eventId: null, attemptCount: 1, nextAttemptAt: null },
  });
}

/** Deleting an endpoint stops its deliveries: pending ones end as failed. */
/** A delivery of a stored event (not a test send) to one of the merchant's endpoints. */
export async function findEventDelivery(database: Db, merchantId: string, id: string) {
  return database.webhookDelivery.findFirst({
    where: { id, endpoint: { merchantId }, eventId: { not: null } },
  });
}

export async function findDeliveryById(database: Db, id: string) {
  return database.webhookDelivery.findUniqueOrThrow({ where: { id } });
}

export async function findDeliveryWithEndpoint(database: Db, id: string) {
  return database.webhookDelivery.findUniqueOrThrow({ where: { id }, include: { endpoint: true } });
}

export type DeliveryClaim = { id: string; attempt: number };
const claimRows = z.array(z.object({ id: z.string(), attempt: z.number().int() }));

/** A claimed due delivery, with what the worker needs to order a shuffled endpoint's batch. */
export type DueDeliveryClaim = DeliveryClaim & {
  endpointId: string;
  faultNumber: bigint | null;
  shuffle: boolean;
  seed: bigint | null;
};
const dueClaimRows = z.array(
  z.object({
    id: z.string(),
    attempt: z.number().int(),
    endpointId: z.string(),
    faultNumber: z.bigint().nullable(),
    shuffle: z.boolean(),
    seed: z.bigint().nullable(),
  }),
);

/**
 * Claims up to batchSize due deliveries of live, enabled endpoints other than `busyEndpointIds`, skipping rows
 * another worker holds: numbers the attempt and leases the row for leaseSeconds, in one statement. A shuffled
 * endpoint's deliveries are sent one after another, so theirs are leased for `sequentialLeaseSeconds`.
 */
export async function claimDueDeliveries(
  database: Db,
  batchSize: number,
  leaseSeconds: number,
  sequentialLeaseSeconds = leaseSeconds,
  busyEndpointIds: string[] = [],
): Promise<DueDeliveryClaim[]> {
  // due and leased in the endpoint's merchant's time (its test clock, lib/test-clocks/service.ts)
  return claimOnEachClock(batchSize, async (clocks, limit) => {
    const rows = await database.$queryRawUnsafe<unknown[]>(
      CLAIM_DUE_DELIVERIES[clocks],
      limit,
      leaseSeconds,
      sequentialLeaseSeconds,
      busyEndpointIds,
    );
    return dueClaimRows.parse(rows);
  });
}

/**
 * The deliveries of live, enabled endpoints (other than those in the text[] parameter `busy`) whose `column` is
 * due in their merchant's time (and that meet `condition`), `d` with its endpoint `e` and merchant `m`, oldest
 * first, in one of claimOnEachClock's scans.
 */
function dueDeliveries(clocks: QueueClocks, column: string, condition: string, busy: string): string {
  const due = dueOn(clocks, `d."${column}"`);
  return `FROM "webhook_deliveries" AS d
      JOIN "webhook_endpoints" AS e ON e."id" = d."endpoint_id"
      JOIN "merchants" AS m ON m."id" = e."merchant_id"
      WHERE ${due.where} AND e."deleted_at" IS NULL AND e."status" = 'enabled'
        AND NOT (e."id" = ANY(${busy}::text[])) AND ${condition}
      ORDER BY ${due.order}`;
}

/**
 * Claims up to `limit` more due deliveries of one endpoint, as claimDueDeliveries does: the rest of a shuffled
 * endpoint's batch, which a claim shared with every other endpoint may have cut.
 */
export async function claimEndpointDueDeliveries(
  database: Db,
  endpointId: string,
  limit: number,
  leaseSeconds: number,
  sequentialLeaseSeconds: number,
): Promise<DueDeliveryClaim[]> {
  return claimOnEachClock(limit, async (clocks, left) =>
    dueClaimRows.parse(
      await database.$queryRawUnsafe<unknown[]>(
        CLAIM_ENDPOINT_DUE_DELIVERIES[clocks],
        left,
        leaseSeconds,
        sequentialLeaseSeconds,
        [],
        endpointId,
      ),
    ),
  );
}

const claimDueDeliveriesOn = (clocks: QueueClocks, ofEndpoint = '') => `WITH due AS (
      SELECT d."id", ${merchantNowSql('m')} AS "now", e."fault_shuffle", e."fault_seed"
      ${dueDeliveries(clocks, 'next_attempt_at', `d."status" = 'pending'${ofEndpoint}`, '$4')}
      LIMIT $1::int
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "webhook_deliveries" AS d
    SET "attempt_count" = d."attempt_count" + 1,
        "last_attempt_at" = due."now",
        "next_attempt_at" = due."now" + make_interval(secs => CASE WHEN due."fault_shuffle" THEN $3::int ELSE $2::int END)
    FROM due WHERE d."id" = due."id"
    RETURNING d."id", d."attempt_count" AS "attempt", d."endpoint_id" AS "endpointId",
      d."fault_number" AS "faultNumber", due."fault_shuffle" AS "shuffle", due."fault_seed" AS "seed"`;

const CLAIM_DUE_DELIVERIES = onEachClock((clocks) => claimDueDeliveriesOn(clocks));
const CLAIM_ENDPOINT_DUE_DELIVERIES = onEachClock((clocks) =>
  claimDueDeliveriesOn(clocks, ` AND d."endpoint_id" = $5`),
);

/** A claimed injected duplicate, with the endpoint it goes to. */
export type DuplicateClaim = DeliveryClaim & { endpointId: string };
const duplicateClaimRows = z.array(z.object({ id: z.string(), attempt: z.number().int(), endpointId: z.string() }));

/**
 * Claims up to batchSize injected duplicates that are due (of live, enabled endpoints other than
 * `busyEndpointIds`, in their merchant's time), skipping rows another worker holds: clears duplicate_due_at and
 * numbers the attempt in the same statement, so each duplicate is sent at most once whatever the number of
 * workers (a worker that dies mid-send loses that duplicate).
 */
export async function claimDueDuplicates(
  database: Db,
  batchSize: number,
  busyEndpointIds: string[] = [],
): Promise<DuplicateClaim[]> {
  return claimOnEachClock(batchSize, async (clocks, limit) =>
    duplicateClaimRows.parse(
      await database.$queryRawUnsafe<unknown[]>(CLAIM_DUE_DUPLICATES[clocks], limit, busyEndpointIds),
    ),
  );
}

const claimDueDuplicatesOn = (clocks: QueueClocks) => `WITH due AS (
      SELECT d."id" ${dueDeliveries(clocks, 'duplicate_due_at', `d."duplicate_due_at" IS NOT NULL`, '$2')}
      LIMIT $1::int
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "webhook_deliveries" AS d
    SET "duplicate_due_at" = NULL, "attempt_count" = d."attempt_count" + 1
    FROM due WHERE d."id" = due."id"
    RETURNING d."id", d."attempt_count" AS "attempt", d."endpoint_id" AS "endpointId"`;

const CLAIM_DUE_DUPLICATES = onEachClock(claimDueDuplicatesOn);

/** In an UPDATE of webhook_deliveries: the time of the delivery's endpoint's merchant (its test clock). */
const DELIVERY_NOW = Prisma.raw(
  connectionNowSql(`(SELECT "merchant_id" FROM "webhook_endpoints" WHERE "id" = "webhook_deliveries"."endpoint_id")`),
);

/**
 * Just before a claimed delivery is sent (it may have waited its turn behind others of its endpoint): whether
 * it is still this claim's, pending and of a live, enabled endpoint. 'send': its lease, and its attempt's time,
 * now run from now.
 * 'released': its endpoint was disabled meanwhile, so it is not sent and its attempt is given back (it waits,
 * unclaimed, until the endpoint is enabled again). 'gone': deleted endpoint (which ended it), finished, or
 * claimed again by another worker after its lease ran out.
 */
export async function renewClaimBeforeSend(
  database: Db,
  claim: DeliveryClaim,
  leaseSeconds: number,
): Promise<'send' | 'released' | 'gone'> {
  const rows = await database.$queryRawUnsafe<unknown[]>(RENEW_CLAIM, claim.id, claim.attempt, leaseSeconds);
  const [row] = z.array(z.object({ live: z.boolean() })).parse(rows);
  return row === undefined ? 'gone' : row.live ? 'send' : 'released';
}

const RENEW_CLAIM = `WITH mine AS (
      SELECT d."id", e."deleted_at" IS NULL AND e."status" = 'enabled' AS "live", ${merchantNowSql('m')} AS "now"
      FROM "webhook_deliveries" AS d
      JOIN "webhook_endpoints" AS e ON e."id" = d."endpoint_id"
      JOIN "merchants" AS m ON m."id" = e."merchant_id"
      WHERE d."id" = $1 AND d."attempt_count" = $2::int AND d."status" = 'pending'
      FOR UPDATE OF d
    )
    UPDATE "webhook_deliveries" AS d
    SET "next_attempt_at" = CASE WHEN mine."live" THEN mine."now" + make_interval(secs => $3::int) ELSE mine."now" END,
        "last_attempt_at" = CASE WHEN mine."live" THEN mine."now" ELSE d."last_attempt_at" END,
        "attempt_count" = CASE WHEN mine."live" THEN d."attempt_count" ELSE d."attempt_count" - 1 END
    FROM mine WHERE d."id" = mine."id"
    RETURNING mine."live"`;

/** Claims one delivery now, whatever its state (a resend): pending again, next attempt number, leased. */
export async function claimDeliveryNow(database: Db, id: string, leaseSeconds: number): Promise<DeliveryClaim> {
  const rows = await database.$queryRaw<unknown[]>`
    UPDATE "webhook_deliveries"
    SET "status" = 'pending', "attempt_count" = "attempt_count" + 1, "last_attempt_at" = ${DELIVERY_NOW},
        "next_attempt_at" = ${DELIVERY_NOW} + make_interval(secs => ${leaseSeconds})
    WHERE "id" = ${id}
    RETURNING "id", "attempt_count" AS "attempt"`;
  const [claim] = claimRows.parse(rows);
  return claim;
}

/**
 * Moves the delivery on after an attempt, only if that attempt is still the newest and the delivery is
 * pending, so a worker whose lease ran out cannot overwrite a newer attempt. `delayMs` applies when pending;
 * `duplicateAfterMs` schedules an injected duplicate (lib/webhooks/faults.ts).
 */
export async function finishDeliveryAttempt(
  database: Db,
  claim: DeliveryClaim,
  status: WebhookDeliveryStatus,
  delayMs: number | null,
  duplicateAfterMs: number | null = null,
): Promise<void> {
  await database.$executeRaw`
      UPDATE "webhook_deliveries"
      SET "status" = ${status}::"WebhookDeliveryStatus",
          "next_attempt_at" = CASE WHEN ${status} = 'pending' THEN ${DELIVERY_NOW} + make_interval(secs => ${(delayMs ?? 0) / 1000}) END,
          "duplicate_due_at" = CASE WHEN ${duplicateAfterMs}::int IS NOT NULL
            THEN ${DELIVERY_NOW} + make_interval(secs => ${(duplicateAfterMs ?? 0) / 1000}::float8) ELSE "duplicate_due_at" END
      WHERE "id" = ${claim.id} AND "attempt_count" = ${claim.attempt} AND "status" = 'pending'`;
}

/** Per endpoint and status, how many real deliveries (not test sends) were made since `since`. */
export async function countRecentDeliveriesByStatus(database: Db, endpointIds: string[], since: Date) {
  return database.webhookDelivery.groupBy({
    by: ['endpointId', 'status'],
    where: { endpointId: { in: endpointIds }, createdAt: { gte: since }, eventId: { not: null } },
    _count: { _all: true },
  });
}

/** A page of an endpoint's deliveries, newest first, each with its attempts; and their total. */
export async function countAndFindEndpointDeliveries(
  database: Db,
  endpointId: string,
  page: { skip: number; take: number },
) {
  const [total, deliveries] = await Promise.all([
    database.webhookDelivery.count({ where: { endpointId }, orderBy: NEWEST_FIRST, take: countLimit(page.skip) }),
    database.webhookDelivery.findMany({
      where: { endpointId },
      include: { attempts: { orderBy: { attempt: 'asc' } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, deliveries };
}

/** An event's deliveries to the merchant's endpoints, oldest first, with endpoint and attempts. */
export async function findEventDeliveries(database: Db, merchantId: string, eventId: string) {
  return database.webhookDelivery.findMany({
    where: { eventId, endpoint: { merchantId } },
    include: {
      endpoint: { select: { id: true, url: true, deletedAt: true } },
      attempts: { orderBy: { attempt: 'asc' } },
    },
    orderBy: { createdAt: 'asc' },
  });
}

// ---- attempts

export async function insertAttempt(
  database: Db,
  attempt: {
    deliveryId: string;
    attempt: number;
    responseStatus: number | null;
    error: string | null;
    durationMs: number;
    responseExcerpt: string | null;
    injected?: 'duplicate';
  },
) {
  await database.webhookAttempt.create({ data: attempt });
}

/** Every attempt of a delivery, first to last. */
export async function findAttempts(database: Db, deliveryId: string) {
  return database.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { attempt: 'asc' } });
}

/** For the dashboard's Home checklist (lib/dashboard/overview.ts). */
export async function countLiveEndpoints(database: Db, merchantId: string): Promise<number> {
  return database.webhookEndpoint.count({ where: { merchantId, deletedAt: null } });
}

/** Up to `limit` of the attempts made before `cutoff`, oldest first: a batch of the worker's purge. */
export async function deleteWebhookAttemptsBefore(database: Db, cutoff: Date, limit: number): Promise<number> {
  return database.$executeRaw`
    DELETE FROM "webhook_attempts" WHERE "id" IN (
      SELECT "id" FROM "webhook_attempts" WHERE "created_at" < ${cutoff} ORDER BY "created_at" LIMIT ${limit})`;
}

/** Up to `limit` dashboard test sends (deliveries of no stored event) made before `cutoff`. */
export async function deleteTestDeliveriesBefore(database: Db, cutoff: Date, limit: number): Promise<number> {
  return database.$executeRaw`
    DELETE FROM "webhook_deliveries" WHERE "id" IN (
      SELECT "id" FROM "webhook_deliveries" WHERE "event_id" IS NULL AND "created_at" < ${cutoff} LIMIT ${limit})`;
}
