import { NextResponse, type NextRequest } from 'next/server';

// Runs before routing. A /v1 path that is not valid percent-encoding would reach Next's router, which
// answers with an HTML 400 page; the API answers in JSON, always.
export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    return routeNotFound('the path is not valid percent-encoding');
  }
}

function routeNotFound(detail: string) {
  const requestId = `req_${randomBase62(24)}`;
  return NextResponse.json(
    { error: { type: 'invalid_request_error', code: 'route_not_found', message: `Unrecognized request URL: ${detail}`, request_id: requestId } },
    { status: 404, headers: { 'Request-Id': requestId, 'Cache-Control': 'no-store' } },
  );
}

// lib/ids.ts uses node:crypto; the proxy keeps to Web Crypto
function randomBase62(length: number): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
}

// Only /v1 paths with a percent sign come here. Next hands a proxy the request body, and before any route
// runs it waits for that body to arrive in full, buffering it: were every /v1 POST to pass through here,
// lib/api/body.ts could no longer refuse an oversized or endless upload while it streams. Paths without a
// '%' cannot be wrongly percent-encoded, so they go straight to their route.
export const config = { matcher: ['/v1/:rest(.*%.*)'] };
