import { z } from 'zod';
import type { Scope } from '@/lib/api-keys/scopes';
import type { IdKind } from '@/lib/core/ids';
import type { ErrorCode } from './error-codes';

// What an /v1 endpoint is, declared once: its route file serves it through apiRoute (which takes the
// scope, the Idempotency-Key rule, the body and query schemas and the success status from here), and the
// OpenAPI document and /docs are built from the same object.

export type Idempotency = 'required' | 'optional' | 'none';

export const API_TAGS = [
  { name: 'Checkout sessions', description: 'A hosted page where a customer pays for one order.' },
  { name: 'Payments', description: 'What customers paid, or tried to. A succeeded payment is proof of payment.' },
  { name: 'Refund requests', description: 'Giving back part or all of a payment, through its life cycle.' },
  { name: 'Payment links', description: 'Shareable pages that sell a fixed amount, no code needed.' },
  { name: 'Webhook endpoints', description: 'URLs that receive signed events.' },
  { name: 'Events', description: 'Everything that happened, as the webhooks carried it.' },
  { name: 'Test helpers', description: 'Sandbox shortcuts for tests: act as the customer without a browser.' },
  { name: 'Reference', description: 'This document.' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

export type OperationBody<Input = unknown> = {
  /** what the body is parsed with (and documented as) */
  schema: z.ZodType<Input>;
  /** false for the action endpoints that take `{}` or nothing */
  required: boolean;
  /** names the schema in the document when several endpoints share it */
  component?: string;
  example?: Record<string, unknown>;
  /** parses instead of `schema`, when the first error should come from one branch of it (the pay helper's) */
  parse?: (body: unknown) => Input;
};

export type ApiOperation<Input = unknown, Query = unknown> = {
  operationId: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI form: `{id}` for the `[id]` folder of the route file */
  path: string;
  tag: ApiTag;
  summary: string;
  description: string;
  /** null: no key needed */
  scope: Scope | null;
  idempotency: Idempotency;
  /** what the `{id}` of the path is */
  pathId?: IdKind;
  body?: OperationBody<Input>;
  query?: z.ZodObject & z.ZodType<Query>;
  /**
   * The answer: JSON of `schema`; or, with contentType `text/event-stream`, Server-Sent Events whose `data` is
   * JSON of `schema` (the handler answers with a StreamedAnswer, lib/http/route.ts).
   */
  success: { status: 200 | 201; schema: z.ZodType; contentType?: 'text/event-stream' };
  /** the codes of this endpoint's own rules; responses.ts adds those every endpoint of its kind can answer */
  errors: ErrorCode[];
};

/** Declares an operation, keeping the types its body and query parse to for the route's handler. */
export function operation<Input = never, Query = never>(
  declaration: ApiOperation<Input, Query>,
): ApiOperation<Input, Query> {
  return declaration;
}

/** The empty body of the action endpoints (…/expire, …/cancel, …/rotate-secret): `{}` or nothing. */
export const emptyBody: OperationBody<Record<string, never>> = {
  schema: z.strictObject({}),
  required: false,
  component: 'EmptyBody',
};
