import { z } from 'zod';
import { abortReason, sql, type Db } from '@/lib/db';

// Every query on idempotency_keys (lib/api/idempotency.ts says what they are for). The claim and the
// completion are on the path of every create: one prepared statement each.

/** The record that holds a key: the body's fingerprint and the answer stored with it. */
export type KeyRecord = {
  fingerprint: string;
  responseStatus: number | null;
  /** the JSON text of the first answer */
  responseBody: string | null;
};

/** The record holding a key, if any: for answering a request refused before its write could claim the key. */
export async function findIdempotencyRecord(
  database: Db,
  claim: { merchantId: string; endpoint: string; key: string },
): Promise<KeyRecord | null> {
  return database.idempotencyKey.findUnique({
    where: { merchantId_endpoint_key: { merchantId: claim.merchantId, endpoint: claim.endpoint, key: claim.key } },
    select: { fingerprint: true, responseStatus: true, responseBody: true },
  });
}

export async function deleteIdempotencyKeysCreatedBefore(database: Db, cutoff: Date): Promise<number> {
  const { count } = await database.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff } } });
  return count;
}

/** An idempotent create whose answer is stored by the same statement that writes the resource. */
export type ClaimWithAnswer = {
  merchantId: string;
  endpoint: string;
  key: string;
  fingerprint: string;
  status: number;
  body: unknown;
};

/**
 * The CTE "claimed" of such a statement ($1–$6, $6 the answer): it claims the key with the answer already in
 * it. Every write of the statement selects FROM "claimed", so it happens only when this request owns the key;
 * a duplicate waits on the unique index for the first to commit and then writes nothing. `answer` may complete
 * $6 with what only the statement knows, from the tables `from` names.
 *
 * A key is new (inserted), or taken over when its record is older than 24 hours, or unanswered for a minute (its
 * request died) and this request has the same body. The insert does nothing on a conflict rather than updating
 * under a condition: ON CONFLICT DO UPDATE locks the existing row even when its condition is false, which made
 * every replay a write (a transaction id, a commit record and a WAL flush); so a replay only reads.
 */
export function claimWithAnswer(answer = '$6::text', from = ''): string {
  return `"new_claim" AS (
    INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
    SELECT $1, $2, $3, $4, $5::int, ${answer} ${from}
    ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
    RETURNING "id"
  ), "taken_over" AS (
    UPDATE "idempotency_keys" AS k
    SET "fingerprint" = $4, "response_status" = $5::int, "response_body" = w."answer", "created_at" = now(),
        "locked_at" = now()
    FROM (SELECT ${answer} AS "answer" ${from}) AS w
    WHERE k."merchant_id" = $1 AND k."endpoint" = $2 AND k."key" = $3 AND NOT EXISTS (SELECT 1 FROM "new_claim")
      AND (k."created_at" < now() - interval '24 hours'
           OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute' AND k."fingerprint" = $4))
    RETURNING k."id"
  ), "claimed" AS (SELECT "id" FROM "new_claim" UNION ALL SELECT "id" FROM "taken_over")`;
}

export const CLAIM_WITH_ANSWER_VALUES = 6;

export function claimWithAnswerValues(claim: ClaimWithAnswer): unknown[] {
  return [claim.merchantId, claim.endpoint, claim.key, claim.fingerprint, claim.status, JSON.stringify(claim.body)];
}

/** The statement's last SELECT reads these: whether it claimed the key, else the record that holds it. */
export const CLAIM_OUTCOME = {
  columns: `c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus", e."response_body" AS "responseBody"`,
  from: `(SELECT 1) AS "one" LEFT JOIN "claimed" AS c ON true
    LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $1 AND e."endpoint" = $2 AND e."key" = $3`,
};

const claimOutcomeRow = z.object({
  claimed: z.boolean(),
  fingerprint: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
});

/**
 * claimed, or the record that holds the key; undefined when that record was committed after the statement's
 * snapshot was taken (the caller runs the statement again).
 */
export type ClaimOutcome = { claimed: true } | { claimed: false; record: KeyRecord | undefined };

export function claimOutcomeOf(row: object): ClaimOutcome {
  const outcome = claimOutcomeRow.parse(row);
  if (outcome.claimed) return { claimed: true };
  const { fingerprint, responseStatus, responseBody } = outcome;
  return { claimed: false, record: fingerprint === null ? undefined : { fingerprint, responseStatus, responseBody } };
}

/** One column of a row inserted by insertRowClaimingKey: its name, value and SQL type. */
export type Column = [name: string, value: unknown, type: string];

/**
 * Inserts one row FROM the key's claim, with the answer in the claim, in one statement: the idempotent create
 * of a resource that is one row. Returns whether this request claimed the key, else the record that holds it.
 * Only for a repository, about its own table.
 */
export async function insertRowClaimingKey(
  database: Db,
  table: string,
  columns: Column[],
  claim: ClaimWithAnswer,
): Promise<ClaimOutcome> {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const values = columns.map(([, , type], i) => `$${CLAIM_WITH_ANSWER_VALUES + i + 1}::${type}`).join(', ');
  const text = `
    WITH ${claimWithAnswer()}, inserted AS (INSERT INTO "${table}" (${names}) SELECT ${values} FROM "claimed")
    SELECT ${CLAIM_OUTCOME.columns} FROM ${CLAIM_OUTCOME.from}`;
  const result = await runClaimingStatement(
    database,
    { name: `insert-${table}-claiming-key`, text, values: columns.map(([, value]) => value) },
    claim,
  );
  if ('refused' in result) throw new Error(`an insert into ${table} undid itself: ${result.refused}`);
  return result.outcome;
}

/**
 * Runs a statement that claims the key with its answer (claimWithAnswer: $1–$6, then `values`): again while the
 * record holding the key is not yet visible to it, or when it undid itself (abort_statement) for `retryOn`.
 * Returns the claim's outcome with the statement's row, or the reason it undid itself when that is one of
 * `refusals` (nothing was written, the key stays free).
 */
export async function runClaimingStatement<Refusal extends string = never>(
  database: Db,
  statement: { name: string; text: string; values: unknown[] },
  claim: ClaimWithAnswer,
  undo: { refusals?: readonly Refusal[]; retryOn?: string } = {},
): Promise<{ outcome: ClaimOutcome; row: object } | { refused: Refusal }> {
  for (;;) {
    try {
      const [row] = await sql<object>(database, statement.name, statement.text, [
        ...claimWithAnswerValues(claim),
        ...statement.values,
      ]);
      const outcome = claimOutcomeOf(row);
      if (outcome.claimed || outcome.record) return { outcome, row };
      // the record holding the key was committed after this statement's snapshot: look again
    } catch (error) {
      const reason = abortReason(error);
      const refusal = undo.refusals?.find((one) => one === reason);
      if (refusal !== undefined) return { refused: refusal };
      if (reason === undefined || reason !== undo.retryOn) throw error;
    }
  }
}

/** A conditional change of one row with or without the key's claim: its two statement texts. */
export type ClaimableChange<Refusal extends string> = {
  name: string;
  plain: string;
  claiming: string;
  refusal: Refusal;
};

/**
 * A statement that changes one row by a conditional UPDATE, its CTE named `changed`, with or without the
 * Idempotency-Key's claim. With it ($1–$6 the claim's, the statement's own values after them), the UPDATE
 * selects FROM "claimed", and a row that no longer qualifies undoes the statement with `refusal`, so that the
 * key stays free. `ctes($, gate)` writes the statement's CTEs: `$(n)` is its n-th own value's placeholder,
 * `gate` what the UPDATE selects FROM.
 */
export function claimableChange<Refusal extends string>(
  name: string,
  refusal: Refusal,
  ctes: ($: (n: number) => string, gate: string) => string,
): ClaimableChange<Refusal> {
  const plain = `WITH ${ctes((n) => `$${n}`, '')}
  SELECT EXISTS (SELECT 1 FROM changed) AS "changed"`;
  const claiming = `WITH ${claimWithAnswer()}, ${ctes((n) => `$${CLAIM_WITH_ANSWER_VALUES + n}`, 'FROM "claimed"')}
  SELECT EXISTS (SELECT 1 FROM changed) AS "changed", ${CLAIM_OUTCOME.columns},
    CASE WHEN c."id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changed) THEN abort_statement('${refusal}') END AS "undone"
  FROM ${CLAIM_OUTCOME.from}`;
  return { name, plain, claiming, refusal };
}

const changedRow = z.object({ changed: z.boolean() });

/**
 * Runs a claimableChange: without a claim, whether it changed the row; with one, the claim's outcome, or the
 * refusal when nothing was written.
 */
export async function runClaimableChange<Refusal extends string>(
  database: Db,
  change: ClaimableChange<Refusal>,
  values: unknown[],
  claim?: ClaimWithAnswer,
): Promise<ClaimOutcome | boolean | Refusal> {
  if (!claim) {
    const [row] = await sql(database, change.name, change.plain, values);
    return changedRow.parse(row).changed;
  }
  const result = await runClaimingStatement(
    database,
    { name: `${change.name}-claiming-key`, text: change.claiming, values },
    claim,
    { refusals: [change.refusal] },
  );
  return 'refused' in result ? result.refused : result.outcome;
}
