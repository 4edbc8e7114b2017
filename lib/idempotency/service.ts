import { createHmac } from 'node:crypto';
import { db } from '@/lib/db';
import { ApiError, errors } from '@/lib/core/errors';
import { secrets } from '@/lib/secrets';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  deleteIdempotencyKeysCreatedBefore,
  findIdempotencyRecord,
  type KeyRecord,
} from './repository';

// /docs#idempotency. The key is claimed, with the answer in it, by the statement that writes the resource
// (claimWithAnswer in lib/idempotency/repository.ts): a crash leaves both the resource and its record, or
// neither, and a concurrent request with the same key waits for that statement and replays its answer.

/**
 * HMAC-SHA-256 of the body as canonical JSON (keys sorted), so key order and spacing do not matter. Keyed
 * with the server-side pepper, not a plain SHA-256: a test-helper pay body carries a card number, and
 * with its BIN and last four known the other digits of a plain hash fall to a brute force in seconds.
 */
export function fingerprint(body: unknown): string {
  return createHmac('sha256', secrets().apiKeyPepper)
    .update('idempotency-fingerprint:')
    .update(canonicalJson(body))
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a request gets when another holds its key: that request's answer, or a refusal. */
function replayOf(record: KeyRecord, hash: string): { status: number; body: unknown } {
  if (record.fingerprint !== hash) {
    throw errors.idempotencyKeyReused(
      'This Idempotency-Key was already used with a different request body; use a new key for a new request',
      'This was already sent with other details. Reload the page and try again.',
    );
  }
  // only a record of an earlier release's claim-first requests has no answer (every claim now holds one)
  if (record.responseStatus === null) {
    throw errors.idempotencyKeyInUse(
      'A request with this Idempotency-Key is still being processed; retry shortly',
      'This is still being done. Wait a moment, then reload the page.',
    );
  }
  // the text the first answer was sent as (JSON.stringify, as Response.json makes it); parsed, its keys keep
  // that order, and none is an integer-like key that JSON.parse would move ahead, so it is sent again byte for byte
  return { status: record.responseStatus, body: JSON.parse(record.responseBody ?? 'null') };
}

/**
 * An idempotent create that claims its key in the statement that writes it (one round trip, no transaction):
 * the service asks for the claim with the answer it is about to give, and settles the statement's outcome.
 */
export type KeyClaimingWrite = {
  /** the claim to write with a row, holding the row's answer (`serialize`d, as the route answers) for replays */
  answering<Row>(serialize: (row: Row) => unknown): (row: Row) => ClaimWithAnswer;
};

/**
 * What a claiming write gives instead of its row when another request holds the key with this body: that
 * request's answer, which apiRoute sends again. A value returned up to the route, never thrown.
 */
export class IdempotentReplay {
  readonly kind = 'replay';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A claiming write's outcome: the row it wrote, or the replay of the request that holds its key. */
export type Claimed<Row> = Row | IdempotentReplay;

/** How a service asks for the key's claim with the answer it is about to give. */
export type ClaimKey<Row> = (row: Row) => ClaimWithAnswer;

export function isReplay(value: unknown): value is IdempotentReplay {
  return value instanceof IdempotentReplay;
}

/** The answer to send: the row serialized, or the replay as it is (apiRoute sends it again). */
export function answerOf<Row, Body>(written: Claimed<Row>, serialize: (row: Row) => Body): Body | IdempotentReplay {
  return isReplay(written) ? written : serialize(written);
}

/**
 * Runs an idempotent request whose service claims the key in its write statement. A refusal before that write
 * answers as the key's record would, when there is one (422 for another body, the stored answer for the
 * same), as if the key had been checked before anything else.
 */
export async function answerClaimingInWrite<T>(
  claim: Omit<ClaimWithAnswer, 'body'>,
  run: (write: KeyClaimingWrite) => Promise<Claimed<T>>,
): Promise<Claimed<T>> {
  let claimed = false;
  const write: KeyClaimingWrite = {
    answering: (serialize) => (row) => {
      claimed = true;
      return { ...claim, body: serialize(row) };
    },
  };
  let result: Claimed<T>;
  try {
    result = await run(write);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const record = await findIdempotencyRecord(await db(), claim);
    if (!record) throw error;
    const replay = replayOf(record, claim.fingerprint);
    return new IdempotentReplay(replay.status, replay.body);
  }
  if (!claimed) throw new Error('an idempotent create wrote without claiming its Idempotency-Key');
  return result;
}

/**
 * Nothing when the statement claimed the key; else the replay of the request that holds it, or (another body,
 * or a request still running) the refusal that record calls for.
 */
export function settleClaim(outcome: ClaimOutcome, claim: ClaimWithAnswer): IdempotentReplay | undefined {
  if (outcome.claimed) return undefined;
  if (!outcome.record) throw new Error('settleClaim needs the record that holds the key');
  const replay = replayOf(outcome.record, claim.fingerprint);
  return new IdempotentReplay(replay.status, replay.body);
}

/** The worker's purge of keys claimed more than a day before `now` (the real time: keys belong to no test clock). */
export async function purgeExpiredIdempotencyKeys(now: Date): Promise<number> {
  return deleteIdempotencyKeysCreatedBefore(await db(), new Date(now.getTime() - 24 * 3600_000));
}
