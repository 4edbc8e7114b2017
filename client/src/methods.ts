import type { Transport } from './http.js';
import { ListPromise, type ListPage } from './list.js';
import { EventStream } from './stream.js';
import type { components, paths } from './openapi.js';
import type { Answer, BodyArguments, HttpMethod, OperationOf, PathWith, Query, RequestOptions } from './types.js';

// The kinds of method the client has, each made from the path of its operation: the path names the
// operation in the generated `paths`, which types the method's arguments and answer. Adding a method for a
// new endpoint is one line in client.ts, e.g. `update: m.postById('/v1/webhook-endpoints/{id}')`
// or `stream: m.stream('/v1/events/stream', 'Event')`.

/** the operation a method calls, as lib/openapi/operations.ts declares it; client/test/coverage.test.ts reads it */
export type Declared = { method: 'GET' | 'POST' | 'DELETE'; path: keyof paths };

function declare<F extends (...args: never[]) => unknown>(method: HttpMethod, path: keyof paths, fn: F) {
  const operation: Declared = { method: method === 'get' ? 'GET' : method === 'post' ? 'POST' : 'DELETE', path };
  return Object.assign(fn, { operation });
}

type ListItem<O> = Answer<O> extends ListPage<infer Item> ? Item : never;

export type StreamOptions = RequestOptions & {
  /** resume after this event (`Last-Event-ID`) instead of starting from now */
  lastEventId?: string;
};

export function methodMaker(transport: Transport) {
  const call = (...args: Parameters<Transport['call']>) => transport.call(...args);
  return {
    /** `POST /v1/things`: `(body, options?)` */
    post<P extends PathWith<'post'>>(path: P) {
      return declare('post', path, (...args: BodyArguments<OperationOf<P, 'post'>>) => {
        const [body, options] = args as [unknown, RequestOptions | undefined];
        return call({ method: 'post', path, body }, options) as Promise<Answer<OperationOf<P, 'post'>>>;
      });
    },
    /** `GET /v1/things/{id}`: `(id, options?)` */
    getById<P extends PathWith<'get'>>(path: P) {
      return declare('get', path, (id: string, options?: RequestOptions) => {
        return call({ method: 'get', path, id }, options) as Promise<Answer<OperationOf<P, 'get'>>>;
      });
    },
    /** `GET` without an id that is not a list (the OpenAPI document): `(options?)` */
    get<P extends PathWith<'get'>>(path: P) {
      return declare('get', path, (options?: RequestOptions) => {
        return call({ method: 'get', path }, options) as Promise<Answer<OperationOf<P, 'get'>>>;
      });
    },
    /** `GET /v1/things`: `(query?, options?)`, awaitable for the first page and async-iterable over all */
    list<P extends PathWith<'get'>>(path: P) {
      type Item = ListItem<OperationOf<P, 'get'>>;
      return declare('get', path, (query?: Query<OperationOf<P, 'get'>>, options?: RequestOptions) => {
        const given: object = query ?? {};
        const startingAfter =
          'starting_after' in given && typeof given.starting_after === 'string' ? given.starting_after : undefined;
        return new ListPromise<Item>(
          (after) =>
            call({ method: 'get', path, query: { ...query, starting_after: after } }, options) as Promise<
              ListPage<Item>
            >,
          startingAfter,
        );
      });
    },
    /** `POST /v1/things/{id}…` (update, expire, cancel, pay…): `(id, body, options?)`, body optional when the operation's is */
    postById<P extends PathWith<'post'>>(path: P) {
      return declare('post', path, (id: string, ...args: BodyArguments<OperationOf<P, 'post'>>) => {
        const [body, options] = args as [unknown, RequestOptions | undefined];
        return call({ method: 'post', path, id, body }, options) as Promise<Answer<OperationOf<P, 'post'>>>;
      });
    },
    /**
     * a `text/event-stream` GET: `(query?, options?)`, async-iterable over its messages, reopened with
     * Last-Event-ID; `item` names the schema of each message's `data`, since OpenAPI 3.1 types the stream
     * only as text (its description names the schema)
     */
    stream<P extends PathWith<'get'>, Item extends keyof components['schemas']>(path: P, _item: Item) {
      return declare('get', path, (query?: Query<OperationOf<P, 'get'>>, options?: StreamOptions) => {
        const open = (lastEventId: string | undefined, signal: AbortSignal) =>
          transport.open(path, query, lastEventId, options, signal);
        return new EventStream<components['schemas'][Item]>(open, options?.lastEventId, transport.retriesOf(options));
      });
    },
    /** `DELETE /v1/things/{id}`: `(id, options?)` */
    deleteById<P extends PathWith<'delete'>>(path: P) {
      return declare('delete', path, (id: string, options?: RequestOptions) => {
        return call({ method: 'delete', path, id }, options) as Promise<Answer<OperationOf<P, 'delete'>>>;
      });
    },
  };
}
