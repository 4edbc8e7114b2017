import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { errors } from '@/lib/core/errors';
import { errorBody } from '@/lib/http/error-body';
import { newId } from '@/lib/core/ids';
import { API_OPERATIONS } from '@/lib/openapi/operations';

// Next.js serves the seven methods of its route handlers. Any other method would reach it and fail there:
// TRACE, TRACK and CONNECT make Next throw while it builds its Request (a 500 on every path), and the rest
// get an empty 400, or a page rendered as if it were a GET; and Next answers OPTIONS with every method a
// route file exports, which for /v1 is all of them (routes() in lib/http/route.ts answers 405 to the ones the
// path does not serve). So each server process answers these before Next sees the request: 405 with the
// methods the path serves in `Allow` (as JSON under /v1, like every API error), and OPTIONS with them.

// in the order routes() in lib/http/route.ts lists them
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const NEXT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const PAGE_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS']; // POST: a page's server actions and forms
const AUTH_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS']; // next-auth's sign-in and sign-out post
const READ_ONLY_METHODS = ['GET', 'HEAD', 'OPTIONS']; // health checks, built assets

/**
 * The methods of a /v1 path's operations, as `Allow` names them (the 405 of routes() in lib/http/route.ts
 * too); null for a path no operation has. HEAD is served wherever GET is, and OPTIONS everywhere.
 */
export function allowedApiMethods(pathname: string): string[] | null {
  const served = new Set<string>(
    API_OPERATIONS.filter((operation) => pathPattern(operation.path).test(pathname)).map(
      (operation) => operation.method,
    ),
  );
  return served.size === 0 ? null : ROUTE_METHODS.filter((method) => served.has(method));
}

const patterns = new Map<string, RegExp>();
function pathPattern(template: string): RegExp {
  let pattern = patterns.get(template);
  if (!pattern) {
    pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?$`);
    patterns.set(template, pattern);
  }
  return pattern;
}

type Refusal = { status: number; headers: Record<string, string>; body: string };

/** What a request's method gets before Next sees it, or null to let Next serve it. */
export function methodRefusal(method: string, pathname: string): Refusal | null {
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return apiMethodRefusal(method, pathname);
  const allowed = pathname.startsWith('/api/')
    ? AUTH_METHODS
    : pathname.startsWith('/_next/') || pathname === '/healthz' || pathname === '/readyz'
      ? READ_ONLY_METHODS
      : PAGE_METHODS;
  // route handlers answer the seven themselves; pages would render for PUT, PATCH and DELETE
  if (allowed !== PAGE_METHODS && NEXT_METHODS.has(method)) return null;
  if (method === 'OPTIONS') return { status: 204, headers: { Allow: allowed.join(', ') }, body: '' };
  if (allowed.includes(method)) return null;
  return {
    status: 405,
    headers: { Allow: allowed.join(', '), 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    body: `${method} is not allowed here; use ${allowed.join(', ')}.\n`,
  };
}

// Per method, every /v1 path that serves it in one expression: nearly every request is a method its path
// serves, answered by one test instead of a test of each operation's path.
const servedPaths = new Map<string, RegExp | null>();
function servesMethod(method: string, pathname: string): boolean {
  let pattern = servedPaths.get(method);
  if (pattern === undefined) {
    const templates = API_OPERATIONS.filter((operation) => operation.method === method).map((operation) =>
      operation.path.replace(/\{\w+\}/g, '[^/]+'),
    );
    pattern = templates.length === 0 ? null : new RegExp(`^(?:${templates.join('|')})/?$`);
    servedPaths.set(method, pattern);
  }
  return pattern?.test(pathname) ?? false;
}

function apiMethodRefusal(method: string, pathname: string): Refusal | null {
  if (servesMethod(method === 'HEAD' ? 'GET' : method, pathname)) return null;
  const allowed = allowedApiMethods(pathname);
  if (allowed) {
    if (allowed.includes(method) || (method === 'HEAD' && allowed.includes('GET'))) return null;
    if (method === 'OPTIONS') return { status: 204, headers: { Allow: allowed.join(', ') }, body: '' };
  } else if (NEXT_METHODS.has(method) && method !== 'OPTIONS') {
    return null; // an unknown path: the catch-all route's JSON 404
  }
  const requestId = newId('request');
  const error = allowed
    ? errors.methodNotAllowed(method, allowed)
    : errors.routeNotFound(`Unrecognized request URL (${method} ${pathname})`);
  return {
    status: error.status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'Request-Id': requestId,
      ...error.headers,
    },
    body: JSON.stringify(errorBody(error, requestId)),
  };
}

const globalForMethods = globalThis as unknown as { sandboxMethodGuard?: WeakSet<Server> };

/** Called once per server process, before it serves: every HTTP server answers methodRefusal first. */
export function refuseUnservedMethods(): void {
  if (globalForMethods.sandboxMethodGuard) return;
  const guarded = new WeakSet<Server>();
  globalForMethods.sandboxMethodGuard = guarded;
  // published by Node's HTTP server just before it emits 'request' for the request it parsed: the first
  // request of a server wraps that server's emit, in time for the request itself
  diagnosticsChannel.subscribe('http.server.request.start', (message) => {
    const { server } = message as { server: Server };
    if (guarded.has(server)) return;
    guarded.add(server);
    const emit = server.emit.bind(server);
    server.emit = ((event: string, ...args: unknown[]) => {
      if (event === 'request') {
        const [request, response] = args as [IncomingMessage, ServerResponse];
        const refusal = methodRefusal(request.method ?? '', pathnameOf(request.url));
        if (refusal) {
          response.writeHead(refusal.status, refusal.headers).end(request.method === 'HEAD' ? '' : refusal.body);
          return true;
        }
      }
      return emit(event, ...args);
    }) as Server['emit'];
  });
}

function pathnameOf(url: string | undefined): string {
  const pathname = (url ?? '/').split('?')[0];
  return pathname.startsWith('/') ? pathname : '/';
}
