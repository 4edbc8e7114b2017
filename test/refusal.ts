import { ApiError } from '@/lib/core/errors';

/** What a refused change was refused with: its status, code and the sentence for a person; throws if it was not refused. */
export async function refusalOf(change: Promise<unknown>) {
  const error = await change.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, code: error.code, userMessage: error.userMessage };
}
