import { errors } from './errors';
import { assertStrictJson } from './strict-json';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a POST body as a JSON object. The size limit is enforced while reading the stream, so an
 * oversized body is refused without being buffered. An empty body is `{}` where `emptyAllowed`.
 */
export async function readJsonBody(request: Request, emptyAllowed: boolean): Promise<Record<string, unknown>> {
  const declaredLength = Number(request.headers.get('content-length') ?? NaN);
  if (declaredLength > MAX_BODY_BYTES) throw tooLarge();
  const raw = await readLimited(request);
  if (raw.length === 0 && emptyAllowed) return {};

  const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw errors.unsupportedMediaType(
      `Content-Type must be application/json${contentType ? `, not ${contentType}` : ''}`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw errors.invalidJson('The body is not valid UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.invalidJson('The body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.invalidJson('The body must be a JSON object');
  }
  assertStrictJson(text);
  return parsed as Record<string, unknown>;
}

async function readLimited(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // the client went away mid-body: nobody will read this answer, but it must not count as our failure
      throw errors.invalidJson('The request body could not be read to the end');
    });
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge() {
  const error = errors.payloadTooLarge(`The body must be at most ${MAX_BODY_BYTES / 1024} KiB`);
  // the rest of the body is never read, so this connection cannot carry another request: say so, or a
  // keep-alive client sends its next request on a socket that is about to be reset
  error.headers.Connection = 'close';
  return error;
}
