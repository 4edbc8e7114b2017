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

/** Thrown by settleClaim when another request holds the key with this body; apiRoute answers with it. */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('idempotent replay');
  }
}

/**
 * Runs an idempotent request whose service claims the key in its write statement. A refusal before that write
 * answers as the key's record would, when there is one (422 for another body, the stored answer for the
 * same), as if the key had been checked before anything else.
 */
export async function answerClaimingInWrite<T>(
  claim: Omit<ClaimWithAnswer, 'body'>,
  run: (write: KeyClaimingWrite) => Promise<T>,
): Promise<{ replay: false; result: T } | { replay: true; body: unknown }> {
  let claimed = false;
  const write: KeyClaimingWrite = {
    answering: (serialize) => (row) => {
      claimed = true;
      return { ...claim, body: serialize(row) };
    },
  };
  try {
    const result = await run(write);
    if (!claimed) throw new Error('an idempotent create wrote without claiming its Idempotency-Key');
    return { replay: false, result };
  } catch (error) {
    if (error instanceof IdempotentReplay) return { replay: true, body: error.body };
    if (!(error instanceof ApiError)) throw error;
    const record = await findIdempotencyRecord(await db(), claim);
    if (!record) throw error;
    return { replay: true, body: replayOf(record, claim.fingerprint).body };
  }
}

/** Returns when the statement claimed the key; else throws the replay, or the refusal, of the record holding it. */
export function settleClaim(outcome: ClaimOutcome, claim: ClaimWithAnswer): void {
  if (outcome.claimed) return;
  if (!outcome.record) throw new Error('settleClaim needs the record that holds the key');
  const replay = replayOf(outcome.record, claim.fingerprint);
  throw new IdempotentReplay(replay.status, replay.body);
}

export async function purgeExpiredIdempotencyKeys(): Promise<number> {
  return deleteIdempotencyKeysCreatedBefore(await db(), new Date(Date.now() - 24 * 3600_000));
}
