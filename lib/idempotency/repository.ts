import { z } from 'zod';
import type { Db } from '@/lib/db';
import {
  compile,
  cte,
  type Cte,
  params,
  permitted,
  type Refusal,
  refusedColumn,
  run,
  sql as statementSql,
  type Statement,
  undoneBy,
  runWrite,
  type Write,
} from '@/lib/db/statement';

// Every query on idempotency_keys (lib/idempotency/service.ts says what they are for). The claim is on the path of
// every idempotent write: withKeyClaim below adds it, with the answer in it, to the write's own statement.

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

// ---- the key's claim in a write of the statement builder (lib/db/statement.ts)

type KeyValues = {
  keyMerchantId: string;
  keyEndpoint: string;
  key: string;
  keyFingerprint: string;
  answerStatus: number;
  answer: string;
};

const key = params<KeyValues>({
  keyMerchantId: 'text',
  keyEndpoint: 'text',
  key: 'text',
  keyFingerprint: 'text',
  answerStatus: 'int',
  answer: 'text',
});

/** The values of the key's claim: `key.answer` is the JSON text of the answer. */
function keyValues(claim: ClaimWithAnswer): KeyValues {
  return {
    keyMerchantId: claim.merchantId,
    keyEndpoint: claim.endpoint,
    key: claim.key,
    keyFingerprint: claim.fingerprint,
    answerStatus: claim.status,
    answer: JSON.stringify(claim.body),
  };
}

/** The answer a claim stores as it was given; a write whose answer holds what only its statement knows gives its own. */
const givenAnswer = cte('answer', statementSql`SELECT ${key.answer} AS "answer"`);

/**
 * The claim of the key, with the answer in it, in the place of `permitted`: every write of the statement selects
 * FROM it, so it happens only when this request owns the key; a duplicate waits on the unique index for the
 * first to commit and then writes nothing. `answer` is a CTE whose one row's "answer" is the text to store (none:
 * no claim).
 *
 * A key is new (inserted), or taken over when its record is older than 24 hours, or unanswered for a minute (its
 * request died) and this request has the same body. The insert does nothing on a conflict rather than updating
 * under a condition: ON CONFLICT DO UPDATE locks the existing row even when its condition is false, which made
 * every replay a write (a transaction id, a commit record and a WAL flush); so a replay only reads.
 */
function keyClaim(answer: Cte): Cte {
  const newClaim = cte(
    'new_claim',
    statementSql`
    INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
    SELECT ${key.keyMerchantId}, ${key.keyEndpoint}, ${key.key}, ${key.keyFingerprint}, ${key.answerStatus}, w."answer"
    FROM ${answer} AS w
    ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
    RETURNING "id"`,
  );
  const takenOver = cte(
    'taken_over',
    statementSql`
    UPDATE "idempotency_keys" AS k
    SET "fingerprint" = ${key.keyFingerprint}, "response_status" = ${key.answerStatus}, "response_body" = w."answer",
        "created_at" = now(), "locked_at" = now()
    FROM ${answer} AS w
    WHERE k."merchant_id" = ${key.keyMerchantId} AND k."endpoint" = ${key.keyEndpoint} AND k."key" = ${key.key}
      AND NOT EXISTS (SELECT 1 FROM ${newClaim})
      AND (k."created_at" < now() - interval '24 hours'
           OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute'
               AND k."fingerprint" = ${key.keyFingerprint}))
    RETURNING k."id"`,
  );
  return cte(permitted.name, statementSql`SELECT "id" FROM ${newClaim} UNION ALL SELECT "id" FROM ${takenOver}`);
}

/** A write with the key's claim added (withKeyClaim). */
export type WriteClaimingKey<Values, Reason extends string, Retry extends string> = {
  readonly write: Write<Values, Reason>;
  readonly statement: Statement<Values & KeyValues>;
  readonly retryOn: readonly Retry[];
};

/** Runs of a statement, at most, before a claim that never settles is a fault (runWriteClaimingKey). */
export const CLAIM_TRIES = 4;

/**
 * `write` with the request's Idempotency-Key claimed in it: the claim takes `permitted`'s place, and any of the
 * write's refusals undoes the statement when this request claimed the key (so the key stays free). `answer`
 * gives the text stored when the statement completes the answer (default: the answer as given, `key.answer`);
 * `retryWhen` are the rules that, failing, undo the statement to run it again (its snapshot was too old).
 */
export function withKeyClaim<Values, Reason extends string, Retry extends string = never>(
  write: Write<Values, Reason>,
  options: {
    answer?: (given: typeof key.answer) => Cte<Values & KeyValues>;
    retryWhen?: readonly Refusal<Retry>[];
  } = {},
): WriteClaimingKey<Values, Reason, Retry> {
  const answer = options.answer?.(key.answer) ?? givenAnswer;
  const claimed = keyClaim(answer);
  const refusals = [...write.refusals, ...(options.retryWhen ?? [])];
  const result = write.result ? statementSql`LEFT JOIN ${write.result} AS r ON true` : statementSql``;
  const resultColumns = write.result ? statementSql`, r.*` : statementSql``;
  const select = statementSql`
    SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
      e."response_body" AS "responseBody",
      ${refusedColumn(refusals, statementSql`c."id" IS NULL`)}${resultColumns}
    FROM (SELECT 1) AS "one" LEFT JOIN ${permitted} AS c ON true
      LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = ${key.keyMerchantId}
        AND e."endpoint" = ${key.keyEndpoint} AND e."key" = ${key.key}
      ${result}`;
  const statement = compile<Values & KeyValues>(`${write.name}-claiming-key`, select as never, {
    writes: write.writes,
    replace: new Map([[permitted, claimed]]),
  });
  return { write, statement, retryOn: (options.retryWhen ?? []).map((one) => one.reason) };
}

/**
 * Runs a write claiming the request's key: again while the record holding the key is not yet visible to it, or
 * when it undid itself for one of `retryOn`, CLAIM_TRIES runs at most. Returns the claim's outcome with the
 * statement's row, or the refusal when nothing was written (the key stays free).
 */
export async function runWriteClaimingKey<Values, Reason extends string, Retry extends string>(
  database: Db,
  claiming: WriteClaimingKey<Values, Reason, Retry>,
  values: Values,
  claim: ClaimWithAnswer,
): Promise<{ outcome: ClaimOutcome; row: object } | { refused: Reason }> {
  const claimValues = keyValues(claim);
  for (let tries = 1; tries <= CLAIM_TRIES; tries += 1) {
    try {
      const [row] = await run(database, claiming.statement, values, claimValues);
      const outcome = claimOutcomeOf(row);
      if (outcome.claimed || outcome.record) return { outcome, row };
      // the record holding the key was committed after this statement's snapshot: look again
    } catch (error) {
      const reason = undoneBy(error);
      const refusal = claiming.write.refusals.find((one) => one.reason === reason);
      if (refusal) return { refused: refusal.reason };
      if (!claiming.retryOn.some((one) => one === reason)) throw error;
    }
  }
  throw new Error(`${claiming.statement.name} did not settle its Idempotency-Key in ${CLAIM_TRIES} runs`);
}

/**
 * Runs a write, claiming the request's key when there is one: without a claim, its refusal or true; with one,
 * its refusal or the claim's outcome.
 */
export async function runWriteWithKey<Values, Reason extends string, Retry extends string>(
  database: Db,
  claiming: WriteClaimingKey<Values, Reason, Retry>,
  values: Values,
  claim: ClaimWithAnswer | undefined,
): Promise<{ refused: Reason } | { refused?: undefined; row: object; outcome?: ClaimOutcome }> {
  if (claim) return runWriteClaimingKey(database, claiming, values, claim);
  return runWrite(database, claiming.write, values);
}

/**
 * Runs a write that changes a row (its one refusal: the row no longer qualifies), claiming the request's key
 * when there is one: without a claim, whether it changed the row; with one, the claim's outcome, or the
 * refusal when nothing was written.
 */
export async function runClaimableChange<Values, Reason extends string>(
  database: Db,
  claiming: WriteClaimingKey<Values, Reason, never>,
  values: Values,
  claim?: ClaimWithAnswer,
): Promise<ClaimOutcome | boolean | Reason> {
  const result = await runWriteWithKey(database, claiming, values, claim);
  if (result.refused) return claim ? result.refused : false;
  return 'outcome' in result && result.outcome ? result.outcome : true;
}
