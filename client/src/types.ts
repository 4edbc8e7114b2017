import type { components, paths, webhooks } from './openapi.js';

// Types of the client's methods, read from the generated `paths`: a method declared with a path and an HTTP
// method takes the body, query and answer the OpenAPI document gives that operation.

export type HttpMethod = 'get' | 'post' | 'delete';

/** The paths that have an operation for this HTTP method. */
export type PathWith<M extends HttpMethod> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

export type OperationOf<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The success answer (200 or 201) of an operation. */
export type Answer<O> = O extends { responses: infer Responses }
  ? { [Status in keyof Responses & (200 | 201)]: JsonContent<Responses[Status]> }[keyof Responses & (200 | 201)]
  : never;

export type RequestBody<O> = O extends { requestBody?: infer Body } ? JsonContent<NonNullable<Body>> : never;

export type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Per-request options: the last argument of every method. */
export type RequestOptions = {
  /** the Idempotency-Key of a POST; a random UUID when not given, kept across the client's own retries */
  idempotencyKey?: string;
  /** overrides the client's maxNetworkRetries for this request */
  maxNetworkRetries?: number;
  /** overrides the client's timeout (milliseconds) for this request */
  timeout?: number;
};

/** `(body, options?)` when the operation needs a body, else `(body?, options?)`. */
export type BodyArguments<O> = O extends { requestBody: object }
  ? [body: RequestBody<O>, options?: RequestOptions]
  : [body?: RequestBody<O>, options?: RequestOptions];

type Schemas = components['schemas'];
export type CheckoutSession = Schemas['CheckoutSession'];
export type Payment = Schemas['Payment'];
export type RefundRequest = Schemas['RefundRequest'];
export type PaymentLink = Schemas['PaymentLink'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type DeletedWebhookEndpoint = Schemas['DeletedWebhookEndpoint'];
/** Every event, as `events.retrieve` answers it and webhooks carry it: narrow on `type`. */
export type Event = Schemas['Event'];
export type EventType = Event['type'];
/** The body of the webhook POSTed for one event type. */
export type WebhookEvent<T extends keyof webhooks = keyof webhooks> = RequestBody<NonNullable<webhooks[T]['post']>>;
export type { components, paths, webhooks };
