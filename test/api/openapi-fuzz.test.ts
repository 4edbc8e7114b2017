import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument, OperationObject, ParameterObject } from '@/lib/openapi/document';
import type { JsonSchema } from '@/lib/openapi/json-schema';
import { apiClient, uniqueRef } from '../helpers';
import {
  breaksOf,
  dereference,
  NUL_RULE,
  validArbitrary,
  type Break,
  type Hints,
  type Matches,
} from './openapi-fuzz-support';
import {
  createFixtureMerchant,
  errorShapeProblems,
  percentEncode,
  send,
  toJsonText,
  type FixtureMerchant,
  type RawRequest,
  type RawResponse,
} from './properties-support';

// Fuzzing from the document the server serves: for every operation of /v1/openapi.json, requests whose
// path id, query, headers and body are generated from its schemas (valid ones), and the same with exactly
// one rule broken (invalid ones), each checked with ajv against the document before it is sent. The server
// must answer every one with a status the operation documents and a body matching that status' schema,
// never a 5xx; accept every valid request unless a rule the document states refuses it (ERROR_WHEN of
// lib/openapi/error-codes.ts, or a field's description: FIELD_RULES below); refuse every invalid one with a
// 4xx and the JSON error body. Path ids are this test's own objects (a session, a payment, a refund, a link,
// an endpoint, an event) as well as generated ones.
//
// Deterministic: a fixed seed, printed in the test's name (OPENAPI_FUZZ_SEED to try another,
// OPENAPI_FUZZ_RUNS for more requests per operation). On failure fast-check prints the seed and path to
// replay the shrunk request.

const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? 20_261_127);
const RUNS = Number(process.env.OPENAPI_FUZZ_RUNS ?? 30);
// an accepted clock advance answers once every process has heard of it (lib/test-clocks/service.ts): a second
const runsOf = (operation: { object: OperationObject }) =>
  operation.object.operationId === 'advanceTestClock' ? Math.ceil(RUNS / 4) : RUNS;
const DOCUMENT_URI = 'https://sandbox.invalid/openapi.json';

const document = (await send({ method: 'GET', path: '/v1/openapi.json' })).json as OpenApiDocument;

/**
 * Refusals of a valid request that the document states, by code: a rule across fields (amount_mismatch),
 * against the account's settings (url_not_approved) or against the state of the objects named (an id no
 * object has, a session already paid). Their conditions are the error table's (lib/openapi/error-codes.ts).
 */
const STATED_REFUSALS = new Set([
  'resource_missing',
  'amount_mismatch',
  'url_not_approved',
  'payment_method_not_approved',
  'payment_method_unavailable',
  'payment_method_not_offered',
  'order_already_paid',
  'payment_not_refundable',
  'refund_exceeds_available',
  'checkout_session_not_open',
  'refund_not_cancelable',
  'refund_not_pending',
  'payment_not_capturable',
  'payment_not_cancelable',
]);

/**
 * `parameter_invalid` or `parameter_missing` for a valid request, where the document states in words a rule
 * JSON Schema cannot: operationId → the error's param → words of the field's description (or, for a rule of
 * the whole operation, its description) that state it. The first test checks the words are there.
 */
const FIELD_RULES: Record<string, Record<string, string>> = {
  createCheckoutSession: { amount: 'a total outside 1–99,999,999', capture_method: 'cards only' },
  capturePayment: { amount_to_capture: '1 … amount_capturable' },
  createRefundRequest: { crypto_refund_destination_note: 'USDC payments only, and required for them' },
  createPaymentLink: {
    'adjustable_quantity.minimum': 'at most maximum',
    'adjustable_quantity.maximum': 'amount × maximum at most 99,999,999',
  },
  updatePaymentLink: {
    metadata: 'at most 50 keys after the merge',
    'adjustable_quantity.minimum': 'at most maximum',
    'adjustable_quantity.maximum': 'amount × maximum at most 99,999,999',
  },
  createWebhookEndpoint: { events: '`"*"` stands alone' },
  updateWebhookEndpoint: { events: '`"*"` stands alone' },
  streamEvents: { 'Last-Event-ID': 'one of the last 24 hours; else `400 parameter_invalid`' },
  payCheckoutSession: {
    card_number: 'must pass the Luhn check',
    exp_year: 'an expired card is refused',
  },
  advanceTestClock: { seconds: 'at most 50 years ahead in all' },
};

// --- the document's operations ------------------------------------------------------------------------------

type Operation = {
  name: string;
  method: string;
  path: string;
  object: OperationObject;
  pathId?: JsonSchema;
  query: Record<string, JsonSchema>;
  headers: Record<string, { schema: JsonSchema; required: boolean }>;
  body?: { schema: JsonSchema; required: boolean };
};

const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, object]) => {
    const parameters = dereference(object.parameters, document) as ParameterObject[];
    const of = (place: ParameterObject['in']) => parameters.filter((parameter) => parameter.in === place);
    const body = object.requestBody;
    return {
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      object,
      pathId: of('path')[0]?.schema,
      query: Object.fromEntries(of('query').map((parameter) => [parameter.name, parameter.schema])),
      headers: Object.fromEntries(
        of('header').map((parameter) => [parameter.name, { schema: parameter.schema, required: parameter.required }]),
      ),
      body: body && {
        schema: dereference(body.content['application/json'].schema, document) as JsonSchema,
        required: body.required,
      },
    };
  }),
);

// --- ajv over the document ----------------------------------------------------------------------------------

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_URI });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();
const matches: Matches = (schema, value) => {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  return check(value);
};
const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const responseValidators = new Map<string, ValidateFunction>();

/** Problems with an answer against the operation's documented responses: its status, media type and body. */
function undocumented(operation: Operation, response: RawResponse): string[] {
  const documented = operation.object.responses[String(response.status)];
  if (!documented) return [`status ${response.status} is not documented`];
  const [mediaType] = Object.keys(documented.content ?? {});
  const contentType = response.headers.get('content-type')?.split(';')[0] ?? '';
  if (contentType !== mediaType) return [`content-type ${contentType}, documented ${mediaType}`];
  if (mediaType === 'text/event-stream') return [];
  const ref = `${DOCUMENT_URI}#/${pointer('paths', operation.path, operation.method.toLowerCase(), 'responses', String(response.status), 'content', mediaType, 'schema')}`;
  let check = responseValidators.get(ref);
  if (!check) {
    check = ajv.compile({ $ref: ref });
    responseValidators.set(ref, check);
  }
  return check(response.json) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

// --- this test's merchants and objects ------------------------------------------------------------------------

// Webhook endpoints belong to a merchant that makes no payments (no event is ever sent to a generated URL),
// and the test clock to one of its own (so advancing it expires none of the shop's sessions).
let shop: FixtureMerchant;
let hooks: FixtureMerchant;
let clock: FixtureMerchant;
/** id prefix (`cs_`…) → ids of this test's objects */
const objects = new Map<string, string[]>();
let paidReference = '';
/** open sessions only the pay helper is given (the expire operation, earlier, would close the others) */
const toPay: string[] = [];
/** authorizations (requires_capture) kept for the capture and the cancel operations */
const toCapture: string[] = [];
const toCancel: string[] = [];

const merchantOf = (operation: Operation) =>
  operation.path.startsWith('/v1/webhook-endpoints')
    ? hooks
    : operation.path.startsWith('/v1/test-helpers/clock')
      ? clock
      : shop;

beforeAll(async () => {
  [shop, hooks, clock] = await Promise.all([
    createFixtureMerchant({ name: 'Fuzz Shop', keys: 4 }),
    createFixtureMerchant({ name: 'Fuzz Hooks', keys: 2 }),
    createFixtureMerchant({ name: 'Fuzz Clock', keys: 2 }),
  ]);
  const api = apiClient(shop.keys[0]);
  const created = async (path: string, body: unknown) => {
    const response = await api.post(path, body);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  };
  const session = () =>
    created('/v1/checkout-sessions', {
      order_reference: uniqueRef('fuzz'),
      currency: 'USD',
      items: [{ name: 'Lamp', quantity: 1, unit_amount: 5000 }],
      amount: 5000,
      return_url: 'https://shop.example.com/thanks',
    });
  const sessions = [];
  for (let i = 0; i < 10; i++) sessions.push(await session());
  const payments = [];
  for (const paid of sessions.slice(0, 2)) {
    const answer = await created(`/v1/test-helpers/checkout-sessions/${paid.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    payments.push(answer.id);
  }
  // authorizations to capture or cancel, each for the largest amount, so that any valid amount_to_capture fits
  const authorizations = [];
  for (let i = 0; i < 16; i++) {
    const held = await created('/v1/checkout-sessions', {
      order_reference: uniqueRef('fuzz-held'),
      currency: 'USD',
      items: [{ name: 'Piano', quantity: 1, unit_amount: 99_999_999 }],
      amount: 99_999_999,
      return_url: 'https://shop.example.com/thanks',
      capture_method: 'manual',
    });
    const authorized = await created(`/v1/test-helpers/checkout-sessions/${held.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    authorizations.push(authorized.id);
  }
  paidReference = sessions[0].order_reference;
  const refunds = [];
  for (const payment of payments)
    for (const amount of [100, 200])
      refunds.push(await created('/v1/refund-requests', { payment_id: payment, amount }));
  const links = [];
  for (const name of ['Gift card', 'Poster'])
    links.push(await created('/v1/payment-links', { name, amount: 2500, currency: 'USD' }));
  const endpoints = [];
  for (const url of ['https://hooks.example.com/a', 'https://hooks.example.com/b'])
    endpoints.push(await apiClient(hooks.keys[0]).post('/v1/webhook-endpoints', { url, events: ['refund.failed'] }));
  const events = (await api.get('/v1/events?limit=5')).body.data;
  objects.set('cs_', [shop.ids.openSession, ...sessions.slice(0, 6).map((one) => one.id)]);
  toPay.push(...sessions.slice(6).map((one) => one.id));
  objects.set('pay_', [shop.ids.payment, ...payments]);
  toCapture.push(...authorizations.slice(0, 8));
  toCancel.push(...authorizations.slice(8));
  objects.set('rr_', [shop.ids.refundRequest, ...refunds.map((one) => one.id)]);
  objects.set('pl_', [shop.ids.paymentLink, ...links.map((one) => one.id)]);
  objects.set('we_', [hooks.ids.webhookEndpoint, ...endpoints.map((one) => one.body.id)]);
  objects.set('evt_', [shop.ids.event, ...events.map((one: { id: string }) => one.id)]);
}, 120_000);

/** Values the test knows, offered beside generated ones: its objects' ids, approved URLs, a paid reference. */
const hints: Hints = (field) => {
  const approved = ['https://shop.example.com/thanks', 'http://localhost:4000/done?x=1'];
  switch (field) {
    case 'path.id':
      return [...objects.values()].flat();
    case 'payment_id':
    case 'query.payment_id':
      return objects.get('pay_') ?? [];
    case 'query.starting_after':
      return [...objects.values()].flat();
    case 'return_url':
    case 'cancel_url':
    case 'after_payment_url':
      return approved;
    case 'url':
      return ['https://hooks.example.com/in', 'http://127.0.0.1:9/in'];
    case 'order_reference':
    case 'query.order_reference':
      return [paidReference];
    case 'card_number':
      return ['4242424242424242', '4000 0000 0000 0002'];
    case 'header.Last-Event-ID':
      return objects.get('evt_') ?? [];
    default:
      return [];
  }
};

/** The hints of one operation: its path's ids also name the objects kept for it (sessions to pay, authorizations). */
const KEPT_FOR: Record<string, string[]> = {
  payCheckoutSession: toPay,
  capturePayment: toCapture,
  cancelPayment: toCancel,
};
const hintsOf =
  (operation: Operation): Hints =>
  (field) =>
    field === 'path.id' && KEPT_FOR[operation.object.operationId]
      ? [...KEPT_FOR[operation.object.operationId], ...hints(field)]
      : hints(field);

/** The words the document says about a field (a dotted path into the body, or a parameter) and its operation. */
function describedRules(operation: Operation, field: string): string {
  const parameter = (dereference(operation.object.parameters, document) as ParameterObject[]).find(
    (one) => one.name === field,
  );
  const fieldsAt = (schema: JsonSchema | undefined, path: string[]): JsonSchema[] => {
    if (!schema) return [];
    const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    if (variants) return variants.flatMap((variant) => fieldsAt(variant, path));
    if (path.length === 0) return [schema];
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return fieldsAt(properties[path[0]], path.slice(1));
  };
  const described = fieldsAt(operation.body?.schema, field.split('.')).map((schema) => schema.description);
  return [parameter?.description, ...described, operation.object.description].filter(Boolean).join(' | ');
}

// --- requests -------------------------------------------------------------------------------------------------

type Parts = { id?: string; query: Record<string, unknown>; headers: Record<string, unknown>; body?: unknown };
type Case = { parts: Parts; broken?: Break & { where: 'path' | 'query' | 'header' | 'body' } };

function validParts(operation: Operation): fc.Arbitrary<Parts> {
  const { pathId, query, headers, body } = operation;
  const fields = (schemas: Record<string, JsonSchema>, place: string) =>
    Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [
        name,
        validArbitrary(schema, matches, hintsOf(operation), `${place}.${name}`),
      ]),
    );
  const headerSchemas = Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, header.schema]));
  return fc.record({
    id: pathId ? validArbitrary(pathId, matches, hintsOf(operation), 'path.id').map(String) : fc.constant(undefined),
    query: fc.record(fields(query, 'query'), { requiredKeys: [] }),
    headers: fc.record(fields(headerSchemas, 'header'), {
      requiredKeys: Object.keys(headers).filter((name) => headers[name].required),
    }),
    body: body
      ? body.required
        ? validArbitrary(body.schema, matches, hintsOf(operation))
        : fc.option(validArbitrary(body.schema, matches, hintsOf(operation)), { nil: undefined })
      : fc.constant(undefined),
  });
}

/** A query value as the server reads it back: the JSON type its schema names, when the text is one. */
function queryValue(schema: JsonSchema, text: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

const isScalar = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);
// what fetch can send in a header: no control characters, no space at either end (HTTP drops it)
const sendable = (value: string) => /^[\x20-\x7e\x80-\xff]*$/.test(value) && value.trim() === value;
const stillValid = (schema: JsonSchema, broken: Break, value: unknown) =>
  broken.rule !== NUL_RULE && matches(schema, value);

/** Every way to break exactly one rule of a valid request, each still one the document calls invalid. */
function breaksOfParts(operation: Operation, parts: Parts): NonNullable<Case['broken']>[] {
  const found: NonNullable<Case['broken']>[] = [];
  if (operation.pathId && parts.id !== undefined) {
    for (const broken of breaksOf(operation.pathId, parts.id, matches)) {
      const id = broken.value;
      // an empty segment is another path, not this operation's
      if (typeof id === 'string' && id !== '' && !stillValid(operation.pathId, broken, id))
        found.push({ ...broken, where: 'path', path: 'id' });
    }
  }
  for (const [name, value] of Object.entries(parts.query)) {
    const schema = operation.query[name];
    for (const broken of breaksOf(schema, value, matches)) {
      if (!isScalar(broken.value)) continue;
      const text = String(broken.value);
      if (!stillValid(schema, broken, queryValue(schema, text)))
        found.push({ ...broken, where: 'query', path: name, value: { ...parts.query, [name]: text } });
    }
  }
  if (Object.keys(operation.query).length > 0 || operation.method === 'GET')
    found.push({
      where: 'query',
      path: 'unexpected',
      rule: 'a parameter the operation does not take',
      value: { ...parts.query, unexpected: '1' },
    });
  for (const [name, header] of Object.entries(operation.headers)) {
    const value = parts.headers[name];
    if (header.required) {
      const { [name]: _dropped, ...rest } = parts.headers;
      found.push({ where: 'header', path: name, rule: 'required', value: rest });
    }
    if (typeof value !== 'string') continue;
    for (const broken of breaksOf(header.schema, value, matches)) {
      if (
        typeof broken.value === 'string' &&
        sendable(broken.value) &&
        !stillValid(header.schema, broken, broken.value)
      )
        found.push({ ...broken, where: 'header', path: name, value: { ...parts.headers, [name]: broken.value } });
    }
  }
  if (operation.body) {
    const schema = operation.body.schema;
    for (const broken of breaksOf(schema, parts.body ?? {}, matches))
      if (!stillValid(schema, broken, broken.value)) found.push({ ...broken, where: 'body' });
  }
  return found;
}

type Body = Record<string, any>;

/**
 * Half the generated requests are made to keep the rules FIELD_RULES lets refuse them, so that valid requests
 * are also accepted, not only refused for a stated reason: operationId → the body, changed only as the rule asks.
 */
const KEEP_STATED_RULES: Record<string, (body: Body) => Body> = {
  createCheckoutSession: (body) => {
    const items = (body.items as Body[]).map((item) => ({
      ...item,
      quantity: 1,
      unit_amount: item.unit_amount % 1000,
    }));
    if (items.every((item) => item.unit_amount === 0)) items[0].unit_amount = 1;
    // interac takes CAD only, usdc USD only (payment_method_unavailable)
    const methods = body.payment_methods?.filter(
      (method: string) => method === 'card' || (method === 'usdc') === (body.currency === 'USD'),
    );
    const { payment_methods: _methods, ...rest } = body;
    return {
      ...rest,
      ...(methods?.length ? { payment_methods: methods } : {}),
      items,
      shipping_amount: 0,
      tax_amount: 0,
      amount: items.reduce((sum, item) => sum + item.unit_amount, 0),
      // a host the shop approved (url_not_approved)
      return_url: 'https://shop.example.com/thanks',
      ...(body.cancel_url === undefined ? {} : { cancel_url: null }),
    };
  },
  createRefundRequest: ({ crypto_refund_destination_note: _usdcOnly, ...body }) => body,
  createPaymentLink: (body) => {
    const quantity = body.adjustable_quantity;
    if (!quantity) return body;
    // at most maximum ≥ minimum, and amount × maximum within the largest amount
    const maximum = Math.min(quantity.maximum ?? 99, Math.floor(99_999_999 / body.amount));
    const minimum = Math.min(quantity.minimum ?? 1, maximum);
    return { ...body, adjustable_quantity: { ...quantity, minimum, maximum } };
  },
  updatePaymentLink: (body) => {
    const quantity = body.adjustable_quantity;
    if (!quantity) return body;
    // at most maximum ≥ minimum (the links it changes sell at 25.00, so any maximum keeps within the largest amount)
    const maximum = quantity.maximum ?? 99;
    return { ...body, adjustable_quantity: { ...quantity, minimum: Math.min(quantity.minimum ?? 1, maximum) } };
  },
  createWebhookEndpoint: (body) => (body.events.includes('*') ? { ...body, events: ['*'] } : body),
  updateWebhookEndpoint: (body) => (body.events?.includes('*') ? { ...body, events: ['*'] } : body),
  payCheckoutSession: (body) =>
    body.payment_method === 'card' ? { ...body, card_number: '4242424242424242', exp_year: 2100 } : body,
};

function caseOf(operation: Operation): fc.Arbitrary<Case> {
  const keep = KEEP_STATED_RULES[operation.object.operationId];
  const generated = validParts(operation);
  const valid = keep
    ? fc
        .tuple(generated, fc.boolean())
        .map(([parts, kept]) =>
          kept && parts.body !== undefined ? { ...parts, body: keep(parts.body as Body) } : parts,
        )
    : generated;
  const invalid = valid.chain((parts) => {
    const breaks = breaksOfParts(operation, parts);
    return breaks.length === 0
      ? fc.constant({ parts })
      : fc.constantFrom(...breaks).map((broken) => ({ parts: apply(parts, broken), broken }));
  });
  return fc.oneof(
    valid.map((parts) => ({ parts })),
    invalid,
  );
}

function apply(parts: Parts, broken: NonNullable<Case['broken']>): Parts {
  if (broken.where === 'path') return { ...parts, id: broken.value as string };
  if (broken.where === 'query') return { ...parts, query: broken.value as Parts['query'] };
  if (broken.where === 'header') return { ...parts, headers: broken.value as Parts['headers'] };
  return { ...parts, body: broken.value };
}

let sent = 0;

function requestOf(operation: Operation, { parts, broken }: Case): RawRequest {
  const merchant = merchantOf(operation);
  const headers: Record<string, string> = {};
  if (operation.object.security.length > 0)
    headers.Authorization = `Bearer ${merchant.keys[sent % merchant.keys.length]}`;
  for (const [name, value] of Object.entries(parts.headers)) {
    // a valid key is made unique, so no two requests share one by chance (reuse is idempotency.test.ts')
    const unique = name === 'Idempotency-Key' && broken?.where !== 'header';
    const maxLength = Number(operation.headers[name].schema.maxLength ?? Infinity);
    headers[name] = unique ? `${sent}-${String(value)}`.slice(0, maxLength) : String(value);
  }
  // an object (metadata) goes as the document's deepObject style: name[key]=value for each pair
  const query = Object.entries(parts.query)
    .flatMap(([name, value]) =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).map(([key, inner]) => [`${name}[${key}]`, String(inner)])
        : [[name, String(value)]],
    )
    .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
    .join('&');
  const path = `${operation.path.replace('{id}', percentEncode(parts.id ?? ''))}${query ? `?${query}` : ''}`;
  if (parts.body === undefined) return { method: operation.method, path, headers };
  headers['Content-Type'] = 'application/json';
  return { method: operation.method, path, headers, body: toJsonText(parts.body) };
}

/** Objects that valid requests made are ids for the later operations; a deleted one is no longer offered. */
function remember(operation: Operation, parts: Parts, response: RawResponse) {
  if (response.status >= 300) return;
  if (operation.method === 'DELETE') {
    for (const [prefix, ids] of objects)
      objects.set(
        prefix,
        ids.filter((id) => id !== parts.id),
      );
    return;
  }
  const id = response.json?.id;
  const prefix = typeof id === 'string' ? /^[a-z]+_/.exec(id)?.[0] : undefined;
  if (prefix && objects.has(prefix) && !objects.get(prefix)!.includes(id)) objects.get(prefix)!.push(id);
}

/**
 * Operations no valid request of this test can get through: the refunds here wait for a person (manual
 * policy), which the test helpers answer with `409 refund_not_pending`, a refusal the document states.
 */
const NEVER_ACCEPTED = new Set(['completeRefundRequest', 'failRefundRequest']);

// --- the properties ---------------------------------------------------------------------------------------------

const tally = new Map<string, Map<string, number>>();
afterAll(() => {
  const lines = [...tally].map(
    ([name, counts]) => `${name}: ${[...counts].map(([outcome, count]) => `${outcome} ×${count}`).join(', ')}`,
  );
  console.log(`openapi fuzz (seed ${SEED}, ${RUNS} runs per operation, ${sent} requests)\n${lines.join('\n')}`);
});

describe(`every operation of /v1/openapi.json under requests generated from its schemas (seed ${SEED})`, () => {
  it('documents the rules this test lets refuse a valid request', () => {
    for (const [operationId, fields] of Object.entries(FIELD_RULES)) {
      const operation = operations.find((one) => one.object.operationId === operationId)!;
      for (const [field, words] of Object.entries(fields))
        expect(describedRules(operation, field), `${operationId} ${field}`).toContain(words);
    }
    expect(document.info.description).toContain('NUL character (U+0000)');
  });

  it.each(operations)(
    '$name: every answer documented, valid requests accepted, invalid ones refused',
    async (operation) => {
      const counts = new Map<string, number>();
      tally.set(operation.name, counts);
      await fc.assert(
        fc.asyncProperty(caseOf(operation), async ({ parts, broken }) => {
          if (operation.body && parts.body !== undefined && !broken)
            expect(
              matches(operation.body.schema, parts.body),
              `generated body is not valid: ${toJsonText(parts.body)}`,
            ).toBe(true);
          const request = requestOf(operation, { parts, broken });
          sent += 1;
          const response = await send(request);
          const what = `${broken ? `broken ${broken.where} ${broken.path} (${broken.rule})` : 'valid'}: ${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers)} ${String(request.body ?? '').slice(0, 400)} → ${response.status} ${response.text.slice(0, 300)}`;
          const code = response.json?.error?.code as string | undefined;
          const param = response.json?.error?.param as string | undefined;
          // a metadata key is the caller's own: tallied as one
          const field = param?.replace(/^metadata\..*/s, 'metadata.<key>');
          const outcome = `${broken ? 'invalid' : 'valid'} ${response.status}${code ? ` ${code}` : ''}${field ? ` (${field})` : ''}`;
          counts.set(outcome, (counts.get(outcome) ?? 0) + 1);

          remember(operation, parts, response);

          expect(response.status, what).toBeLessThan(500);
          expect(undocumented(operation, response), what).toEqual([]);
          if (response.status >= 400) expect(errorShapeProblems(response), what).toEqual([]);
          if (broken) {
            expect(response.status, `an invalid request was not refused: ${what}`).toBeGreaterThanOrEqual(400);
          } else if (response.status >= 400) {
            const param = response.json.error.param as string | undefined;
            const inWords =
              (code === 'parameter_invalid' || code === 'parameter_missing') &&
              param !== undefined &&
              FIELD_RULES[operation.object.operationId]?.[param] !== undefined;
            const stated = STATED_REFUSALS.has(code!) || inWords;
            expect(stated, `a valid request was refused by a rule the document does not state: ${what}`).toBe(true);
          }
        }),
        { seed: SEED, numRuns: runsOf(operation), endOnFailure: true },
      );
      if (!NEVER_ACCEPTED.has(operation.object.operationId))
        expect([...counts.keys()], 'no valid request was accepted').toContainEqual(expect.stringMatching(/^valid 2/));
    },
  );
});
