import { errors } from '@/lib/core/errors';

/** A query's values: a string per name, or an object for the names given as `name[key]=value`. */
export type QueryParameters = Record<string, string | Record<string, string>>;

/**
 * A URL's query as one value per name. A name given twice (?status=failed&status=succeeded) is refused, not
 * read as its last value: a filter the caller believes applied would be silently dropped. `name[key]=value`
 * (OpenAPI's deepObject, how openapi-fetch and Stripe's clients send an object) makes `name` an object of its
 * keys: ?metadata[order_id]=42 is `{ metadata: { order_id: '42' } }`.
 */
export function queryParameters(url: URL): QueryParameters {
  const query: QueryParameters = {};
  const objects = new Map<string, Map<string, string>>();
  for (const [name, value] of url.searchParams) {
    // name[key]: the key is all between the first '[' and the last ']', so that a metadata key may hold brackets
    const [, objectName, key] = /^([^[\]]+)\[(.*)\]$/s.exec(name) ?? [];
    const param = objectName ?? name;
    const object = objects.get(param);
    const givenBefore = Object.hasOwn(query, param) || (objectName === undefined ? !!object : !!object?.has(key));
    if (givenBefore)
      throw errors.parameterInvalid(
        `Invalid ${name}: give it at most once (it was given more than once)`,
        param,
        'This address repeats a filter. Reload the page and try again.',
      );
    if (objectName === undefined) query[name] = value;
    else objects.set(param, (object ?? new Map<string, string>()).set(key, value));
  }
  // Object.fromEntries: a key such as __proto__ becomes the object's own key, not its prototype
  for (const [name, entries] of objects) query[name] = Object.fromEntries(entries);
  return query;
}
