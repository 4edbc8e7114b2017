import { z } from 'zod';
import { sql, type Db } from '@/lib/db';
import { cte, type Fragment, type Param, params, permitted, raw, sql as statementSql, write } from '@/lib/db/statement';
import { MAX_CLOCK_OFFSET_SECONDS } from './schemas';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  runWriteClaimingKey,
  withKeyClaim,
} from '@/lib/idempotency/repository';

// Every query on a connection's test clock (merchants.clock_offset_seconds), and the SQL that tells a
// connection's time (lib/test-clocks/service.ts: the wall clock plus the offset) inside other resources' statements.

/** A connection's "now" in SQL, for the merchant whose id `merchantId` is (an SQL expression). */
export function connectionNowSql(merchantId: string): string {
  return `(now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = ${merchantId})))`;
}

/** connectionNowSql in a statement of the builder (lib/db/statement.ts), for the merchant `merchantId`. */
export function connectionNow<Values>(merchantId: Param<string, string> | Fragment<Values>) {
  return statementSql`(now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = ${merchantId})))`;
}

/** The same for a row joined to its merchant, whose alias is `merchant`. */
export function merchantNowSql(merchant: string): string {
  return `(now() + make_interval(secs => ${merchant}."clock_offset_seconds"))`;
}

/** Which rows a worker's queue scan reads: those due by the wall clock, or those due only on an advanced clock. */
export type QueueClocks = 'wall' | 'advanced';

/**
 * A worker's queue on each row's merchant's time (lib/test-clocks/service.ts), in two scans that indexes can serve: what is due
 * by the wall clock (every merchant's clock is there or ahead of it), then, while the batch has room, what is
 * due only on an advanced clock, found through the merchants whose offset is above zero. A single bound at the
 * latest clock of all would make every merchant's rows due before that time part of each scan. The second scan
 * leaves out what the first one reads, so a row is claimed once.
 */
export async function claimOnEachClock<Row>(
  batchSize: number,
  claim: (clocks: QueueClocks, limit: number) => Promise<Row[]>,
): Promise<Row[]> {
  const wall = await claim('wall', batchSize);
  if (wall.length >= batchSize) return wall;
  return [...wall, ...(await claim('advanced', batchSize - wall.length))];
}

/** A queue's statement for each of claimOnEachClock's scans. */
export function onEachClock(statement: (clocks: QueueClocks) => string): Record<QueueClocks, string> {
  return { wall: statement('wall'), advanced: statement('advanced') };
}

/**
 * Which of a queue's rows one of claimOnEachClock's scans reads, and in which order: `column` is the row's time
 * (due `delay` after it, an SQL interval, when given) and `m` its merchant. By the wall clock, the column itself,
 * which its index serves in order. Only on an advanced clock, the merchants whose offset is above zero (their
 * own small index), after the wall clock and up to theirs, the time compared and ordered as an expression
 * (`+ interval '0'`) that the column's index cannot serve: given the column itself, the planner walked that index
 * over every merchant's rows until it met the advanced merchant's (lib/db/explain.test.ts).
 */
export function dueOn(clocks: QueueClocks, column: string, delay?: string): { where: string; order: string } {
  const late = delay ? ` - ${delay}` : '';
  if (clocks === 'wall') return { where: `${column} <= now()${late}`, order: column };
  const at = `(${column} + interval '0')`;
  return {
    where: `m."clock_offset_seconds" > 0 AND ${at} > now()${late} AND ${at} <= ${merchantNowSql('m')}${late}`,
    order: at,
  };
}

const clockRow = z.object({ offsetSeconds: z.number().int(), now: z.date() });
export type ClockRow = z.infer<typeof clockRow>;

// milliseconds cut, not rounded, as the stored answer of an idempotent advance writes them (to_char's MS)
const clockColumns = (offset: string) =>
  `${offset} AS "offsetSeconds", date_trunc('milliseconds', now() + make_interval(secs => ${offset})) AS "now"`;
const CLOCK_COLUMNS = clockColumns('"clock_offset_seconds"');

/** The merchant's clock; throws when there is no such merchant. */
export async function findClock(database: Db, merchantId: string): Promise<ClockRow> {
  const [row] = await sql<object>(
    database,
    'find-test-clock',
    `SELECT ${CLOCK_COLUMNS} FROM "merchants" WHERE "id" = $1`,
    [merchantId],
  );
  if (!row) throw new Error(`no merchant ${merchantId}`);
  return clockRow.parse(row);
}

export const CLOCK_LIMIT = 'test_clock_limit';

// one UPDATE adds to the offset, so concurrent advances add up exactly, and none passes the limit
const ADVANCE = `UPDATE "merchants" SET "clock_offset_seconds" = "clock_offset_seconds" + $2::int
  WHERE "id" = $1 AND "clock_offset_seconds" + $2::int <= ${MAX_CLOCK_OFFSET_SECONDS}
  RETURNING ${CLOCK_COLUMNS}`;

/**
 * Moves the merchant's clock forward by `seconds`; the clock as it is after this advance, or CLOCK_LIMIT when
 * that would take it past MAX_CLOCK_OFFSET_SECONDS (nothing changed).
 */
export async function advanceClockOf(
  database: Db,
  merchantId: string,
  seconds: number,
): Promise<ClockRow | typeof CLOCK_LIMIT> {
  const [row] = await sql<object>(database, 'advance-test-clock', ADVANCE, [merchantId, seconds]);
  return row ? clockRow.parse(row) : CLOCK_LIMIT;
}

// The same, claiming the request's Idempotency-Key with the answer it stores: the merchant's row is locked first
// (FOR UPDATE waits for a concurrent advance and reads its result), so the stored clock is exactly the one this
// advance made: the serialized clock as given, with the statement's now and offset. An advance past the limit
// changes nothing, and its key stays free.
type AdvanceValues = { merchantId: string; seconds: number };

const advance = params<AdvanceValues>({ merchantId: 'text', seconds: 'int' });

const locked = cte(
  'locked',
  statementSql`
  SELECT "clock_offset_seconds" + ${advance.seconds} AS "offset" FROM "merchants" WHERE "id" = ${advance.merchantId}
  FOR UPDATE`,
);

const advanced = cte(
  'changed',
  statementSql`
  UPDATE "merchants" SET "clock_offset_seconds" = "clock_offset_seconds" + ${advance.seconds}
  FROM ${permitted}
  WHERE "merchants"."id" = ${advance.merchantId}
    AND "clock_offset_seconds" + ${advance.seconds} <= ${raw(MAX_CLOCK_OFFSET_SECONDS)}
  RETURNING 1`,
);

const ADVANCE_CLAIMING_KEY = withKeyClaim(
  write<AdvanceValues, typeof CLOCK_LIMIT>({
    name: 'advance-test-clock',
    writes: [advanced],
    result: cte('clock', statementSql`SELECT ${raw(clockColumns('l."offset"'))} FROM ${locked} AS l`),
    refusals: [{ reason: CLOCK_LIMIT, when: statementSql`NOT EXISTS (SELECT 1 FROM ${advanced})` }],
  }),
  {
    // milliseconds cut, as clockColumns' date_trunc cuts them
    answer: (given) =>
      cte(
        'answer',
        statementSql`
        SELECT (${given}::jsonb || jsonb_build_object(
          'now', to_char((now() + make_interval(secs => l."offset")) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'offset_seconds', l."offset"))::text AS "answer"
        FROM ${locked} AS l`,
      ),
  },
);

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [ADVANCE_CLAIMING_KEY.statement];

/** advanceClockOf, claiming the request's key with its answer in the same statement: the claim's outcome and the clock. */
export async function advanceClockClaimingKey(
  database: Db,
  merchantId: string,
  seconds: number,
  claim: ClaimWithAnswer,
): Promise<{ outcome: ClaimOutcome; clock: ClockRow | undefined } | typeof CLOCK_LIMIT> {
  const result = await runWriteClaimingKey(database, ADVANCE_CLAIMING_KEY, { merchantId, seconds }, claim);
  if ('refused' in result) return result.refused;
  const clock = clockRow.safeParse(result.row);
  return { outcome: result.outcome, clock: clock.success ? clock.data : undefined };
}
