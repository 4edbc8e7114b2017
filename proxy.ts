import { NextResponse, type NextRequest } from 'next/server';

// Runs before routing. A /v1 path that is not valid percent-encoding would otherwise reach Next's router,
// which answers with an HTML 400 page; the API answers in JSON, always.
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  try {
    decodeURIComponent(pathname);
  } catch {
    const requestId = `req_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
    return NextResponse.json(
      {
        error: {
          type: 'invalid_request_error',
          code: 'route_not_found',
          message: 'Unrecognized request URL: the path is not valid percent-encoding',
          request_id: requestId,
        },
      },
      { status: 404, headers: { 'Request-Id': requestId, 'Cache-Control': 'no-store' } },
    );
  }
  return NextResponse.next();
}

export const config = { matcher: '/v1/:path*' };
