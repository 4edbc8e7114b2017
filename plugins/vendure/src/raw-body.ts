import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request whose body this middleware kept byte for byte. */
export type RequestWithRawBody = IncomingMessage & { rawBody?: Buffer; body?: unknown; _body?: boolean };

const LIMIT = 1024 * 1024;

/**
 * Keeps the webhook's body exactly as sent: the signature covers those bytes, which a JSON parser's
 * re-serialisation would not give back. Runs before Vendure's own body parser, which then skips the request
 * (`_body` is body-parser's flag for "already read").
 */
export function rawBodyMiddleware(
  request: RequestWithRawBody,
  response: ServerResponse,
  next: (error?: unknown) => void,
) {
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > LIMIT) {
      response.statusCode = 413;
      response.end();
      request.destroy();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    request.rawBody = Buffer.concat(chunks);
    request._body = true;
    request.body = {};
    next();
  });
  request.on('error', next);
}
