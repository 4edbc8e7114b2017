import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ID_PREFIXES } from '@/lib/core/ids';
import { requestSchemaOf, type JsonSchema } from '@/lib/openapi/json-schema';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { createTestMerchant } from '../helpers';

// Rules every /v1 endpoint keeps alike: an unknown query parameter is refused (lists, get-by-id, actions
// and the document alike), so is one given twice, and a 401 names the scheme to authenticate with (RFC 6750).

let key: string;

beforeAll(async () => {
  ({ key } = await createTestMerchant());
});

function send(operation: (typeof API_OPERATIONS)[number], query: string, authorization?: string) {
  const id = operation.pathId ? `${ID_PREFIXES[operation.pathId]}${'0'.repeat(24)}` : '';
  const body = operation.body?.example;
  return fetch(`${inject('serverUrl')}${operation.path.replace('{id}', id)}${query}`, {
    method: operation.method,
    headers: {
      ...(authorization ? { Authorization: authorization } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(operation.idempotency === 'none' ? {} : { 'Idempotency-Key': randomUUID() }),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

describe('an unknown query parameter', () => {
  it.each(API_OPERATIONS.map((operation) => [operation.operationId, operation] as const))(
    'is 400 parameter_unknown on %s',
    async (_id, operation) => {
      const response = await send(operation, '?expand=x', `Bearer ${key}`);
      expect([response.status, (await response.json()).error]).toEqual([
        400,
        expect.objectContaining({ code: 'parameter_unknown', param: 'expand' }),
      ]);
    },
  );
});

describe('a query parameter given twice', () => {
  /** The operation's first query parameter with two values it takes, or an unknown one where it takes none. */
  function twice(operation: (typeof API_OPERATIONS)[number]): [string, string] {
    const properties = Object.entries((operation.query ? requestSchemaOf(operation.query).properties : {}) ?? {});
    if (properties.length === 0) return ['expand', '?expand=a&expand=b'];
    const [name, schema] = properties[0] as [string, JsonSchema];
    const values = (schema.enum as string[] | undefined) ?? (schema.type === 'integer' ? ['1', '2'] : ['a', 'b']);
    return [name, `?${name}=${values[0]}&${name}=${values.at(-1)}`];
  }

  it.each(API_OPERATIONS.map((operation) => [operation.operationId, operation] as const))(
    'is 400 parameter_invalid naming it on %s',
    async (_id, operation) => {
      const [name, query] = twice(operation);
      const response = await send(operation, query, `Bearer ${key}`);
      expect([response.status, (await response.json()).error]).toEqual([
        400,
        expect.objectContaining({ code: 'parameter_invalid', param: name, message: expect.stringContaining(name) }),
      ]);
    },
  );

  it('?status=failed&status=succeeded on the payments list', async () => {
    const response = await fetch(`${inject('serverUrl')}/v1/payments?status=failed&status=succeeded`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect([response.status, (await response.json()).error.param]).toEqual([400, 'status']);
  });
});

describe('a 401', () => {
  const operation = API_OPERATIONS.find((candidate) => candidate.operationId === 'listPayments')!;

  it('without a key says WWW-Authenticate: Bearer', async () => {
    const response = await send(operation, '');
    expect([response.status, response.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="sandbox"']);
  });

  it('with a key that is no good says invalid_token', async () => {
    const response = await send(operation, '', `Bearer sk_sandbox_${'A'.repeat(32)}`);
    expect([response.status, response.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="sandbox", error="invalid_token"',
    ]);
  });
});
