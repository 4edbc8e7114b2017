import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './document';
import { requestComponentName } from './components';
import type { JsonSchema } from './json-schema';
import { API_OPERATIONS } from './operations';

// What a generator or a validating client reads in the document: open answers and events, strict request
// bodies, and every header and error an endpoint really sends.

const document = buildOpenApiDocument({ serverUrl: 'https://sandbox.example.com' });
const requestNames = new Set(
  API_OPERATIONS.filter((operation) => operation.body).map((operation) => requestComponentName(operation)),
);
const operations = API_OPERATIONS.map(
  (operation) =>
    [operation.operationId, operation, document.paths[operation.path][operation.method.toLowerCase()]] as const,
);

function closedObjects(node: unknown, at = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  const here = (node as JsonSchema).additionalProperties === false ? [at || '/'] : [];
  return [...here, ...Object.entries(node).flatMap(([key, value]) => closedObjects(value, `${at}/${key}`))];
}

describe('the schemas of the document', () => {
  it('leave responses and events open to new fields', () => {
    const closed = Object.entries(document.components.schemas)
      .filter(([name]) => !requestNames.has(name))
      .flatMap(([name, schema]) => closedObjects(schema).map((at) => `${name}${at}`));
    expect(closed).toEqual([]);
  });

  it('keep request bodies strict', () => {
    for (const name of requestNames) {
      const schema = document.components.schemas[name];
      const objects = (schema.oneOf as JsonSchema[] | undefined) ?? [schema];
      for (const object of objects) expect(object.additionalProperties, name).toBe(false);
    }
  });

  it('say a request default in words, not as `default`, which generators read as always present', () => {
    const body = document.components.schemas.CreatePaymentLinkRequest as { properties: Record<string, JsonSchema> };
    expect(JSON.stringify([...requestNames].map((name) => document.components.schemas[name]))).not.toContain(
      '"default"',
    );
    expect(body.properties.active.description).toMatch(/Default `true`/);
  });

  it('type a yes-or-no query filter as a boolean', () => {
    const active = document.paths['/v1/payment-links'].get.parameters.find(
      (parameter) => 'name' in parameter && parameter.name === 'active',
    );
    expect(active).toMatchObject({ in: 'query', schema: { type: 'boolean' } });
  });
});

describe('the responses of every operation', () => {
  it.each(operations)(
    '%s: Idempotent-Replayed on its success when it takes an Idempotency-Key',
    (_id, operation, described) => {
      if (operation.idempotency === 'none') return;
      expect(described.responses['200'].headers).toHaveProperty('Idempotent-Replayed');
    },
  );

  it.each(operations)(
    '%s: WWW-Authenticate on its 401, and an unknown query parameter refused',
    (_id, operation, described) => {
      if (operation.scope) expect(described.responses['401'].headers).toHaveProperty('WWW-Authenticate');
      expect(described.responses['400'].description).toContain('`parameter_unknown`');
    },
  );
});
