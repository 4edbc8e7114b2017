import { NextResponse, type NextRequest } from 'next/server';
import { MAX_BODY_BYTES } from '@/lib/http/body';
import { MAX_JSON_DEPTH, nestingCheck } from '@/lib/http/strict-json';
import { REQUESTED_PATH_HEADER } from '@/lib/dashboard/return-path';
import { docsEdition } from '@/lib/openapi/docs-edition';
import { isActionArgumentList } from '@/lib/server-actions/reply';

// Runs before routing, for a few kinds of request only (see `config` below).
export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith('/v1/')) return refuseBadPercentEncoding(request);
  if (request.nextUrl.pathname === '/docs' || request.nextUrl.pathname.startsWith('/docs/')) return docs(request);
  const refusal = await refuseDeeplyNestedAction(request);
  if (refusal) return refusal;
  return isDashboardPath(request.nextUrl.pathname) ? passRequestedPath(request) : NextResponse.next();
}

function isDashboardPath(pathname: string) {
  return pathname === '/dashboard' || pathname.startsWith('/dashboard/');
}

// A dashboard page cannot read its own address on the server; it gets it from this header when it has to
// send a signed-out visitor to the sign-in page, which returns them here afterwards. Set on every dashboard
// request (overwriting whatever the client sent), and checked again by safeReturnPath before any use.
function passRequestedPath(request: NextRequest) {
  const url = request.nextUrl.clone();
  url.searchParams.delete('_rsc'); // the router's cache-busting parameter, not part of the page asked for
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${url.pathname}${url.search}`);
  return NextResponse.next({ request: { headers } });
}

// /docs is rendered once per deployment's settings and cached (lib/openapi/docs-edition.ts): the address
// stays /docs. Another name under /docs/ is not a page (each would be rendered and cached for nothing).
function docs(request: NextRequest) {
  const edition = `/docs/${docsEdition()}`;
  if (request.nextUrl.pathname === edition) return NextResponse.next();
  if (request.nextUrl.pathname !== '/docs')
    return new NextResponse('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const url = request.nextUrl.clone();
  url.pathname = edition;
  // the server itself speaks plain http (TLS ends in the proxy in front); behind one, nextUrl says https from
  // X-Forwarded-Proto, and Next would forward an https rewrite to itself as another site's (an EPROTO 500)
  url.protocol = 'http:';
  return NextResponse.rewrite(url);
}

// A /v1 path that is not valid percent-encoding would reach Next's router, which answers with an HTML 400
// page; the API answers in JSON, always.
function refuseBadPercentEncoding(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    return routeNotFound('the path is not valid percent-encoding');
  }
}

// A server action's arguments are JSON that React revives recursively before any of our code runs: a
// few thousand levels of brackets overflow the stack and the caller gets a 500, whoever they are. So a
// POST that may carry a server action is refused here when its body, or one of its form fields, is nested
// past the API's own limit. No form of ours comes near it (their arguments are two or three levels deep);
// text typed into a field is refused only if it opens more than 32 brackets it never closes.
async function refuseDeeplyNestedAction(request: NextRequest): Promise<NextResponse | null> {
  if (request.method !== 'POST') return null;
  // Next gives a proxy no more than this of a body (next.config.js), and the action only what the proxy saw
  if (Number(request.headers.get('content-length')) > MAX_BODY_BYTES)
    return refusal(413, `The request must be at most ${MAX_BODY_BYTES / 1024} KiB.`);
  let body: { texts: string[]; actionArguments: string | null };
  try {
    body = await bodyOf(request);
    for (const text of body.texts) nestingCheck()(new TextEncoder().encode(text));
  } catch {
    return refusal(400, `The request is not a form, or is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  // a call from a page's JavaScript (a form posted without it carries no arguments of React's encoding)
  if (request.headers.has('next-action') && !isActionArgumentList(body.actionArguments))
    return refusal(400, 'The request does not hold arguments this page sends.');
  return null;
}

/**
 * Each field of a form (React parses them one by one), or the whole body; and the action's arguments,
 * which React reads from the body, or from a form's field "0".
 */
async function bodyOf(request: NextRequest): Promise<{ texts: string[]; actionArguments: string | null }> {
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(request.headers.get('content-type') ?? '')) {
    const form = await request.formData();
    const root = form.get('0');
    return {
      texts: [...form.values()].filter((value): value is string => typeof value === 'string'),
      actionArguments: typeof root === 'string' ? root : null,
    };
  }
  const text = await request.text();
  return { texts: [text], actionArguments: text };
}

function refusal(status: number, message: string) {
  return new NextResponse(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

function routeNotFound(detail: string) {
  const requestId = `req_${randomBase62(24)}`;
  return NextResponse.json(
    {
      error: {
        type: 'invalid_request_error',
        code: 'route_not_found',
        message: `Unrecognized request URL: ${detail}`,
        request_id: requestId,
      },
    },
    { status: 404, headers: { 'Request-Id': requestId, 'Cache-Control': 'no-store' } },
  );
}

// lib/core/ids.ts uses node:crypto; the proxy keeps to Web Crypto
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

// Next hands a proxy the request body, and before any route runs it waits for that body to arrive in
// full, buffering it: were every /v1 POST to pass through here, lib/http/body.ts could no longer refuse an
// oversized or endless upload while it streams. So /v1 comes here only for paths with a '%' (the others
// cannot be wrongly percent-encoded). Server actions are buffered by Next whatever we do; they come here
// when they say so (Next-Action) or, from a page without JavaScript, as a form post. /api/auth is
// next-auth's, and takes no server action. Every dashboard request comes here for its address (GETs have no
// body to buffer), and /docs for its edition. (Next reads this object at build time: literals only.)
export const config = {
  matcher: [
    '/v1/:rest(.*%.*)',
    '/dashboard/:path*',
    '/docs/:path*',
    { source: '/((?!v1/|api/|_next/).*)', has: [{ type: 'header', key: 'next-action' }] },
    {
      source: '/((?!v1/|api/|_next/).*)',
      has: [
        { type: 'header', key: 'content-type', value: '(multipart/form-data|application/x-www-form-urlencoded).*' },
      ],
    },
  ],
};
