import { ApiError, errors } from '@/lib/core/errors';
import { assertStrictJson, nestingCheck } from './strict-json';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a POST body as a JSON object. The size and nesting limits are enforced while reading the stream,
 * so an oversized or too deeply nested body is refused without being buffered or parsed. An empty body
 * is `{}` where `emptyAllowed`.
 */
export async function readJsonBody(request: Request, emptyAllowed: boolean): Promise<Record<string, unknown>> {
  const declaredLength = Number(request.headers.get('content-length') ?? NaN);
  if (declaredLength > MAX_BODY_BYTES) throw tooLarge();
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  // a body of another type is refused as such (415) once read, whatever its brackets
  const raw = await readLimited(request, contentType === 'application/json' ? nestingCheck() : undefined);
  if (raw.length === 0 && emptyAllowed) return {};

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

async function readLimited(request: Request, inspect?: (chunk: Uint8Array) => void): Promise<Uint8Array> {
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
    try {
      // nesting first: a chunk can be bigger than the whole limit (Node 24 hands over larger ones), and a
      // body nested too deep is refused as such whatever its size
      inspect?.(value);
      if (total > MAX_BODY_BYTES) throw tooLarge();
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error instanceof ApiError ? leftUnread(error) : error;
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
  return leftUnread(errors.payloadTooLarge(`The body must be at most ${MAX_BODY_BYTES / 1024} KiB`));
}

/**
 * A refusal answered before the body was read to its end. The rest is never read, so this connection
 * cannot carry another request: say so, or a keep-alive client sends its next request on a socket that
 * is about to be reset.
 */
function leftUnread(error: ApiError): ApiError {
  error.headers.Connection = 'close';
  return error;
}
