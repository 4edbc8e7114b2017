import { NextResponse, type NextRequest } from 'next/server';

// Runs before routing. The API answers in JSON, always, so /v1 paths that Next's router would answer
// itself (an HTML 400 for bad percent-encoding, a redirect for a trailing slash) are answered here.
// Trailing-slash redirects are off in next.config.js so that they reach this point; pages keep them below.
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = pathname === '/v1' || pathname.startsWith('/v1/');
  if (!isApi) {
    if (pathname.length > 1 && pathname.endsWith('/')) {
      const url = request.nextUrl.clone();
      url.pathname = pathname.replace(/\/+$/, '') || '/';
      return NextResponse.redirect(url, 308);
    }
    return NextResponse.next();
  }
  if (!isValidPercentEncoding(pathname)) return routeNotFound('the path is not valid percent-encoding');
  if (pathname.endsWith('/')) return routeNotFound(`no route is ${pathname}; drop the trailing slash`);
  return NextResponse.next();
}

function isValidPercentEncoding(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
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

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
