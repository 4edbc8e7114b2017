import { SCOPES } from '@/lib/api-keys/scopes';
import { ID_PREFIXES } from '@/lib/core/ids';
import { buildComponentSchemas, componentRef, requestComponentName, responseComponentName } from './components';
import { errorCodeRow } from './error-codes';
import { responseExamples } from './examples';
import { requestSchemaOf, type JsonSchema } from './json-schema';
import { errorCodesByStatus } from './responses';
import { API_OPERATIONS, API_TAGS, type ApiOperation } from './operations';
import { SCOPE_GRANTS } from './scopes';
import { buildWebhooks, WEBHOOK_PARAMETERS } from './webhooks';

// The OpenAPI 3.1 document of /v1, assembled from the operations and the zod schemas. Served at
// /v1/openapi.json and rendered at /docs.

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  webhooks: Record<string, { post: OperationObject }>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, JsonSchema>;
  };
};

export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  /** an object in a query (metadata): `name[key]=value` (lib/http/query.ts reads it) */
  style?: 'deepObject';
  explode?: boolean;
  schema: JsonSchema;
};
export type MediaTypeObject = { schema: JsonSchema; example?: unknown };
export type ResponseObject = {
  description: string;
  headers?: Record<string, JsonSchema>;
  /** one media type: JSON, or Server-Sent Events for the operations that stream (success.contentType) */
  content?: { 'application/json'?: MediaTypeObject; 'text/event-stream'?: MediaTypeObject };
};

/** The one media type of a response, whichever it is. */
export function mediaOf(response: ResponseObject | undefined): MediaTypeObject | undefined {
  return Object.values(response?.content ?? {})[0];
}
export type OperationObject = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  'x-idempotency'?: ApiOperation['idempotency'];
  parameters: (ParameterObject | { $ref: string })[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema; example?: unknown } } };
  responses: Record<string, ResponseObject>;
};

const requestIdHeader = { 'Request-Id': { $ref: '#/components/headers/RequestId' } };

export function buildOpenApiDocument(options: { serverUrl: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const examples = responseExamples(options.serverUrl);
  for (const operation of API_OPERATIONS) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method.toLowerCase()] = operationObject(operation, examples[operation.operationId]);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sandbox Payments API',
      version: '1',
      description:
        'Hosted checkout, payments, refunds and signed webhooks, in a sandbox: no money moves. Every request needs `Authorization: Bearer sk_sandbox_…` with the scope the operation names; creates need an `Idempotency-Key`. Every string, in a body or a query, is refused (400) when it holds a NUL character (U+0000) or an unpaired UTF-16 surrogate: neither is text that can be stored.',
    },
    servers: [{ url: options.serverUrl.replace(/\/$/, ''), description: 'Sandbox' }],
    tags: API_TAGS.map((tag) => ({ ...tag })),
    paths,
    webhooks: buildWebhooks(),
    components: {
      schemas: buildComponentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_sandbox_ followed by 32 letters or digits',
          description: `An API key of the dashboard. Each key holds scopes; an operation lists the one it needs. Scopes: ${SCOPES.map((scope) => `\`${scope}\` (${SCOPE_GRANTS[scope]})`).join('; ')}.`,
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Any 1–255 printable ASCII characters, unique per attempt (a UUID). A retry with the same key and body answers the first result with `Idempotent-Replayed: true`; with another body, `422 idempotency_key_reused`. Kept 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
        },
        ...WEBHOOK_PARAMETERS,
      },
      headers: {
        RequestId: {
          description: 'The id of this request (`req_…`); error bodies repeat it',
          schema: { type: 'string', pattern: `^${ID_PREFIXES.request}` },
        },
        IdempotentReplayed: {
          description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
          schema: { type: 'string', const: 'true' },
        },
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
        WwwAuthenticate: {
          description:
            'The scheme to authenticate with (RFC 6750): `Bearer realm="sandbox"`, with `error="invalid_token"` when the key sent is unknown, revoked or malformed',
          schema: { type: 'string', pattern: '^Bearer ' },
        },
      },
    },
  };
}

function operationObject(operation: ApiOperation, successExample: unknown): OperationObject {
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operationDescription(operation),
    tags: [operation.tag],
    // OpenAPI 3.1 lets a non-OAuth scheme list role names: here, the scope the key must hold
    security: operation.scope ? [{ bearerAuth: [operation.scope] }] : [],
    ...(operation.idempotency !== 'none' ? { 'x-idempotency': operation.idempotency } : {}),
    parameters: parametersOf(operation),
    ...(operation.body
      ? {
          requestBody: {
            required: operation.body.required,
            content: {
              'application/json': {
                schema: componentRef(requestComponentName(operation)),
                ...(operation.body.example ? { example: operation.body.example } : {}),
              },
            },
          },
        }
      : {}),
    responses: responsesOf(operation, successExample),
  };
}

function operationDescription(operation: ApiOperation): string {
  const rules = [
    operation.scope ? `Scope: \`${operation.scope}\`.` : 'No API key needed.',
    operation.idempotency === 'required'
      ? '`Idempotency-Key` required.'
      : operation.idempotency === 'optional'
        ? '`Idempotency-Key` honoured when sent.'
        : '',
  ].filter(Boolean);
  return `${operation.description}\n\n${rules.join(' ')}`;
}

function parametersOf(operation: ApiOperation): OperationObject['parameters'] {
  const parameters: OperationObject['parameters'] = [];
  if (operation.pathId) {
    const prefix = ID_PREFIXES[operation.pathId];
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: `The object's id (\`${prefix}…\`)`,
      schema: { type: 'string', pattern: `^${prefix}` },
    });
  }
  if (operation.query) {
    const query = requestSchemaOf(operation.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        description: QUERY_DESCRIPTIONS[name],
        ...(schema.type === 'object' ? { style: 'deepObject' as const, explode: true } : {}),
        schema,
      });
    }
  }
  if (operation.success.contentType === 'text/event-stream') parameters.push({ ...LAST_EVENT_ID });
  if (operation.idempotency === 'required') parameters.push({ ...IDEMPOTENCY_KEY_REQUIRED });
  if (operation.idempotency === 'optional') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return parameters;
}

// A required header can't reuse the optional component (a $ref can't change `required`).
const IDEMPOTENCY_KEY_REQUIRED: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    'Any 1–255 printable ASCII characters, unique per create (a UUID); resend it with a retry. See Idempotency.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

// Server-Sent Events' own header, which EventSource sends when it reconnects
const LAST_EVENT_ID: ParameterObject = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description:
    'Resume right after this event (one of the last 24 hours; else `400 parameter_invalid`); without it the stream starts from now',
  schema: { type: 'string', pattern: `^${ID_PREFIXES.event}` },
};

const QUERY_DESCRIPTIONS: Record<string, string> = {
  types: 'Only events of these types, comma-separated (`payment.succeeded,refund.completed`); every type when omitted',
  limit: 'How many objects, 1–100',
  active: 'Only the links that take payments (`true`) or only those that do not (`false`)',
  starting_after: 'The id of the last object of the previous page',
};

function responsesOf(operation: ApiOperation, successExample: unknown): Record<string, ResponseObject> {
  const body: ResponseObject['content'] =
    operation.success.contentType === 'text/event-stream'
      ? { 'text/event-stream': eventStreamMedia(operation, successExample) }
      : {
          'application/json': {
            schema: componentRef(responseComponentName(operation.success.schema)),
            ...(successExample !== undefined ? { example: successExample } : {}),
          },
        };
  const responses: Record<string, ResponseObject> = {};
  if (operation.success.status === 201) {
    responses['201'] = { description: 'Created', headers: requestIdHeader, content: body };
    responses['200'] = {
      description: 'A retry with the same Idempotency-Key and body: the stored answer of the first request',
      headers: { ...requestIdHeader, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } },
      content: body,
    };
  } else {
    const replay: Record<string, JsonSchema> =
      operation.idempotency !== 'none'
        ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } }
        : {};
    responses['200'] = { description: 'OK', headers: { ...requestIdHeader, ...replay }, content: body };
  }
  for (const [status, codes] of errorCodesByStatus(operation)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${errorCodeRow(code).when}`).join('. '),
      headers: {
        ...requestIdHeader,
        ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
        ...(status === 401 ? { 'WWW-Authenticate': { $ref: '#/components/headers/WwwAuthenticate' } } : {}),
      },
      content: {
        'application/json': {
          // the error body, narrowed to the codes this endpoint answers with this status
          schema: {
            allOf: [
              componentRef('Error'),
              { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
  }
  return responses;
}

/**
 * A stream's answer: text, messages of `id`, `event` and `data` lines, the data being JSON of the success
 * schema (named in the description, as OpenAPI 3.1 has no schema for the items of a stream); the example is
 * the recorded object as its message, after the ping that opens a stream.
 */
function eventStreamMedia(operation: ApiOperation, example: unknown): MediaTypeObject {
  const name = responseComponentName(operation.success.schema);
  const message = example as { id: string; type: string } | undefined;
  return {
    schema: {
      type: 'string',
      description: `Server-Sent Events: \`: ping\` comments, and messages of \`id: evt_…\`, \`event: <type>\` and \`data: <${name} JSON>\` (#/components/schemas/${name}), each ended by a blank line`,
    },
    ...(message
      ? { example: `: ping\n\nid: ${message.id}\nevent: ${message.type}\ndata: ${JSON.stringify(message)}\n\n` }
      : {}),
  };
}
