import { z } from 'zod';
import type { AuthenticatedKey } from '@/lib/api-keys/service';
import { connectionTime } from '@/lib/core/clock';
import type { RequestContext } from '@/lib/core/context';
import { db, type Db } from '@/lib/db';
import { countRoundTrips } from '@/lib/db/round-trips';
import { newId } from '@/lib/core/ids';
import type { ApiOperation } from '@/lib/openapi/operation';
import { recordApiRequest } from '@/lib/api-logs/service';
import { describeError, log } from '@/lib/log';
import { ApiError, errors } from '@/lib/core/errors';
import { parse } from '@/lib/core/parse';
import {
  answerClaimingInWrite,
  fingerprint,
  type IdempotentReplay,
  isReplay,
  type KeyClaimingWrite,
} from '@/lib/idempotency/service';
import { authenticate, requireScope } from './auth';
import { readJsonBody } from './body';
import { assertStorableText } from './strict-json';
import { checkRateLimit, rateLimitHeaders, type RateLimitState } from './rate-limit';
import { errorBody } from './error-body';
import { readIdempotencyKey } from './idempotency-key';
import { queryParameters } from './query';

// The /v1 wrapper: request id, key auth, scope, body reading, idempotency, and the one place where
// errors become the error body of /docs#errors. Handlers parse, call a service and shape the answer.

type ApiResult = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * What a handler of an operation whose success is `text/event-stream` answers: the stream, sent as it is
 * written. Everything before it (key, scope, parameters) has been checked, and a refusal is JSON as anywhere.
 */
export class StreamedAnswer {
  constructor(readonly body: ReadableStream<Uint8Array>) {}
}

export type ApiContext<Input = unknown, Query = unknown> = {
  request: Request;
  requestId: string;
  params: Record<string, string>;
  /** the query, parsed with the operation's query schema */
  query: Query;
  /** the body, parsed with the operation's body schema */
  body: Input;
  key: AuthenticatedKey;
  merchantId: string;
  /** what the services act with: this request's database, merchant, connection time and id */
  context: RequestContext;
  /**
   * When the request sent an Idempotency-Key: the claim that the service writes in the one statement that
   * writes its resource, with the answer in it. Every operation that takes a key serves it this way: no
   * transaction, no claim of the wrapper's own.
   */
  keyClaimingWrite?: KeyClaimingWrite;
};

type NextContext = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (request: Request, context: NextContext) => Promise<Response>;
/** A served operation keeps its declaration, so a test can hold each route file to the operations it serves. */
export type ApiRouteHandler = RouteHandler & { operation: ApiOperation };

/**
 * Serves an operation: everything the operation declares (scope, Idempotency-Key rule, body and query
 * schemas, success status) is enforced here, so the handler only calls a service and serializes its answer.
 */
export function apiRoute<Input, Query>(
  operation: ApiOperation<Input, Query>,
  /** the answer's body; or, when the service's claiming write found the key held, the replay it returned */
  handler: (ctx: ApiContext<Input, Query>) => Promise<unknown>,
): ApiRouteHandler {
  const served: RouteHandler = async (request, context) => {
    const startedAt = performance.now();
    const requestId = newId('request');
    const seen: Seen = {};
    const { result, roundTrips } = await countRoundTrips(() =>
      runRoute({ operation, handler, request, context, requestId }, seen).catch((error: unknown) =>
        errorResult(error, requestId, request),
      ),
    );
    const streamed = result.body instanceof StreamedAnswer;
    // every header in one object: set one by one on a made Response, each is checked and sorted again
    const headers: Record<string, string> = {
      ...(seen.rateLimit && rateLimitHeaders(seen.rateLimit)),
      ...result.headers,
      ...(roundTrips !== null && { 'Db-Round-Trips': String(roundTrips) }),
    };
    const response = streamed
      ? eventStream(result.body as StreamedAnswer, requestId, headers)
      : json(result.status, result.body, requestId, headers);
    if (seen.merchantId) {
      recordApiRequest({
        merchantId: seen.merchantId,
        method: request.method,
        path: seen.path ?? new URL(request.url).pathname,
        status: response.status,
        durationMs: performance.now() - startedAt,
        requestId,
        idempotencyKey: seen.idempotencyKey,
        apiKeyId: seen.apiKeyId,
        requestBody: seen.requestBody,
        responseBody: streamed ? undefined : result.body,
      });
    }
    return response;
  };
  return Object.assign(served, { operation: operation as ApiOperation });
}

/** What the wrapper learnt before an answer, for the request log: whose request, with which key, saying what. */
type Seen = {
  merchantId?: string;
  apiKeyId?: string;
  path?: string;
  idempotencyKey?: string;
  rateLimit?: RateLimitState;
  requestBody?: Record<string, unknown>;
};

/** One request to an operation's route, as the wrapper hands it on. */
type RouteCall<Input, Query> = {
  operation: ApiOperation<Input, Query>;
  handler: (ctx: ApiContext<Input, Query>) => Promise<unknown>;
  request: Request;
  context: NextContext;
  requestId: string;
};

async function runRoute<Input, Query>(call: RouteCall<Input, Query>, seen: Seen): Promise<ApiResult> {
  const key = await authenticate(call.request);
  return runAuthenticatedRoute(call, seen, key);
}

async function runAuthenticatedRoute<Input, Query>(
  call: RouteCall<Input, Query>,
  seen: Seen,
  key: AuthenticatedKey,
): Promise<ApiResult> {
  const { operation, handler, request, context, requestId } = call;
  seen.merchantId = key.merchantId;
  seen.apiKeyId = key.id;
  seen.idempotencyKey = request.headers.get('idempotency-key') ?? undefined;
  seen.rateLimit = await checkRateLimit(key.id, key.merchantId);
  if (operation.scope) requireScope(key, operation.scope);
  const body = request.method === 'POST' ? await readJsonBody(request, operation.body?.required === false) : {};
  if (request.method === 'POST') seen.requestBody = body;
  const idempotencyKey =
    operation.idempotency === 'none' ? undefined : readIdempotencyKey(request, operation.idempotency === 'required');
  const url = new URL(request.url);
  seen.path = url.pathname;
  const query = queryParameters(url);
  // a NUL in ?order_reference=%00 would reach PostgreSQL, which refuses it (a 500); bodies are checked in readJsonBody
  for (const [name, value] of url.searchParams) {
    assertStorableText(name, undefined);
    assertStorableText(value, name);
  }
  const base = {
    request,
    requestId,
    params: flattenParams(await context.params),
    key,
    merchantId: key.merchantId,
  };
  // everything the request does happens at the connection's time (lib/test-clocks/service.ts), read once here
  const now = connectionTime(key.clockOffsetSeconds);
  // parsed after the idempotency claim: a key reused with another body is a 422 whether or not that body is valid
  const answer = async (database: Db, keyClaimingWrite?: KeyClaimingWrite): Promise<ApiResult | IdempotentReplay> => {
    const parsed = {
      // an endpoint without a query schema takes no parameters: ?expand=x is parameter_unknown, as on the lists
      query: (operation.query || url.search ? parse(operation.query ?? noQuery, query) : query) as Query,
      body: parseBody(operation, body),
    };
    const requestContext: RequestContext = { db: database, merchantId: key.merchantId, now, requestId };
    const answered = await handler({ ...base, ...parsed, context: requestContext, keyClaimingWrite });
    if (isReplay(answered)) return answered;
    if (answered instanceof StreamedAnswer !== (operation.success.contentType === 'text/event-stream'))
      throw new Error(`${operation.operationId} answered otherwise than its success declares`);
    return { status: operation.success.status, body: answered };
  };
  if (!idempotencyKey) {
    const answered = await answer(await db());
    if (isReplay(answered)) throw new Error(`${operation.operationId} replayed without an Idempotency-Key`);
    return answered;
  }

  const claim = {
    merchantId: key.merchantId,
    endpoint: `${request.method} ${url.pathname}`,
    key: idempotencyKey,
    fingerprint: fingerprint(body),
    status: operation.success.status,
  };
  const outcome = await answerClaimingInWrite(claim, async (write) => answer(await db(), write));
  return isReplay(outcome) ? replayResult(outcome.body) : outcome;
}

function replayResult(body: unknown): ApiResult {
  return { status: 200, body, headers: { 'Idempotent-Replayed': 'true' } };
}

const noQuery = z.strictObject({});

function parseBody<Input>(operation: ApiOperation<Input, unknown>, body: Record<string, unknown>): Input {
  if (!operation.body) return body as Input;
  return operation.body.parse ? operation.body.parse(body) : parse(operation.body.schema, body);
}

function flattenParams(params: Record<string, string | string[]> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) out[name] = Array.isArray(value) ? value.join('/') : value;
  return out;
}

function json(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  // what Response.json sends, made with less of the server's CPU (it checks and copies what it is given again)
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Request-Id': requestId, 'Cache-Control': 'no-store', ...headers },
  });
}

function eventStream(answer: StreamedAnswer, requestId: string, headers: Record<string, string>): Response {
  return new Response(answer.body, {
    status: 200,
    headers: {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // a proxy (nginx) that buffers answers would hold the messages back
      'X-Accel-Buffering': 'no',
      'Request-Id': requestId,
    },
  });
}

export function errorResponse(error: unknown, requestId: string, request?: Request): Response {
  const result = errorResult(error, requestId, request);
  return json(result.status, result.body, requestId, result.headers);
}

function errorResult(error: unknown, requestId: string, request?: Request): ApiResult {
  const apiError = toApiError(error);
  if (apiError.status >= 500) {
    log.error('unhandled error in /v1', {
      request_id: requestId,
      method: request?.method,
      path: request && new URL(request.url).pathname,
      ...describeError(error),
    });
  }
  return { status: apiError.status, body: errorBody(apiError, requestId), headers: apiError.headers };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return errors.internal();
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** Every method of a route file: the implemented ones, and a JSON 405 with `Allow` for the rest. */
export function routes(handlers: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  for (const [method, handler] of Object.entries(handlers)) {
    const declared = (handler as Partial<ApiRouteHandler>).operation?.method;
    if (declared && declared !== method) throw new Error(`${declared} operation served as ${method}`);
  }
  const allowed = METHODS.filter((method) => handlers[method]);
  const notAllowed: RouteHandler = async (request) =>
    errorResponse(errors.methodNotAllowed(request.method, allowed), newId('request'));
  return Object.fromEntries(METHODS.map((method) => [method, handlers[method] ?? notAllowed])) as Record<
    Method,
    RouteHandler
  >;
}

/** Unknown /v1 paths. */
export const routeNotFound: RouteHandler = async (request) =>
  errorResponse(
    errors.routeNotFound(`Unrecognized request URL (${request.method} ${new URL(request.url).pathname})`),
    newId('request'),
  );
