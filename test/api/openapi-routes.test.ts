import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '@/lib/api-keys/scopes';
import { ID_PREFIXES } from '@/lib/core/ids';
import type { ApiRouteHandler } from '@/lib/http/route';
import { API_OPERATIONS, type ApiOperation } from '@/lib/openapi/operations';
import { apiClient, createTestMerchant } from '../helpers';

// The operations (lib/openapi/operations.ts) against the route files and the running server, so an endpoint
// cannot exist undocumented, nor be documented with another scope or idempotency rule than it has.
// Which methods a route file serves is asked of the server (a 405 is a method it does not serve).

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const V1 = path.resolve('app/v1');

/** Every route.ts under app/v1 as an OpenAPI path (`[id]` → `{id}`), without the catch-all 404. */
function routeFiles(): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('[[...')) walk(full);
      if (entry.isFile() && entry.name === 'route.ts') {
        const segments = path.relative(V1, folder).split(path.sep).filter(Boolean);
        found.push({
          file: path.relative(process.cwd(), full),
          path: `/v1/${segments.map((segment) => segment.replace(/^\[(\w+)\]$/, '{$1}')).join('/')}`.replace(/\/$/, ''),
        });
      }
    }
  };
  walk(V1);
  return found;
}

/** A well-formed id of the kind the path takes that no object has, so nothing is found or changed. */
function concretePath(operation: Pick<ApiOperation, 'path' | 'pathId'>): string {
  return operation.path.replace('{id}', `${operation.pathId ? ID_PREFIXES[operation.pathId] : 'x_'}${'0'.repeat(24)}`);
}

const operationKey = (operation: Pick<ApiOperation, 'method' | 'path'>) => `${operation.method} ${operation.path}`;

describe('the route files', () => {
  it('serve exactly the operations of the operations', async () => {
    const anonymous = apiClient();
    const served: string[] = [];
    for (const route of routeFiles()) {
      const pathId = API_OPERATIONS.find((operation) => operation.path === route.path)?.pathId;
      for (const method of METHODS) {
        const response = await anonymous.request(method, concretePath({ path: route.path, pathId }), {
          idempotencyKey: null,
        });
        expect([200, 401, 405], `${method} ${route.path} answered ${response.status}`).toContain(response.status);
        if (response.status !== 405) served.push(`${method} ${route.path}`);
      }
    }
    expect(served.sort()).toEqual(API_OPERATIONS.map(operationKey).sort());
  });

  it('serve each operation through its declaration, at the path and method it declares', async () => {
    const declared: string[] = [];
    for (const route of routeFiles()) {
      const handlers = (await import(path.resolve(route.file))) as Record<string, Partial<ApiRouteHandler>>;
      for (const method of METHODS) {
        const operation = handlers[method]?.operation;
        if (operation) declared.push(`${method} ${route.path} serves ${operationKey(operation)}`);
      }
    }
    const apiRoutes = API_OPERATIONS.filter((operation) => operation.scope);
    expect(declared.sort()).toEqual(apiRoutes.map((one) => `${operationKey(one)} serves ${operationKey(one)}`).sort());
  });
});

describe('each operation', () => {
  const keys = new Map<string, string>();
  beforeAll(async () => {
    for (const scope of SCOPES) {
      keys.set(`only ${scope}`, (await createTestMerchant({ scopes: [scope] })).key);
      keys.set(
        `all but ${scope}`,
        (await createTestMerchant({ scopes: SCOPES.filter((other) => other !== scope) })).key,
      );
    }
  });

  const withScope = API_OPERATIONS.filter((operation) => operation.scope);
  const body = (operation: ApiOperation) => (operation.method === 'POST' ? {} : undefined);

  it.each(withScope.map((operation) => [operationKey(operation), operation] as const))(
    '%s needs exactly its documented scope',
    async (_name, operation) => {
      const without = await apiClient(keys.get(`all but ${operation.scope}`)).request(
        operation.method,
        concretePath(operation),
        { body: body(operation) },
      );
      expect([without.status, without.body.error?.code]).toEqual([403, 'insufficient_scope']);
      expect(without.body.error.message).toContain(operation.scope);
      const only = await apiClient(keys.get(`only ${operation.scope}`)).request(
        operation.method,
        concretePath(operation),
        { body: body(operation) },
      );
      expect([401, 403]).not.toContain(only.status);
    },
  );

  it('GET /v1/openapi.json, the one operation without a scope, needs no key', async () => {
    expect(API_OPERATIONS.filter((operation) => !operation.scope).map(operationKey)).toEqual(['GET /v1/openapi.json']);
    expect((await apiClient().get('/v1/openapi.json')).status).toBe(200);
  });

  it.each(API_OPERATIONS.map((operation) => [operationKey(operation), operation] as const))(
    '%s keeps its documented Idempotency-Key rule',
    async (_name, operation) => {
      const client = apiClient(keys.get(operation.scope ? `only ${operation.scope}` : `only ${SCOPES[0]}`));
      const send = (idempotencyKey: string | null) =>
        client.request(operation.method, concretePath(operation), { body: body(operation), idempotencyKey });
      const codeOf = async (idempotencyKey: string | null): Promise<string> =>
        (await send(idempotencyKey)).body.error?.code ?? 'none';
      const tooLong = 'k'.repeat(256);
      if (operation.idempotency === 'required') {
        expect(await codeOf(null)).toBe('idempotency_key_missing');
        expect(await codeOf(tooLong)).toBe('idempotency_key_invalid');
      } else if (operation.idempotency === 'optional') {
        expect(await codeOf(null)).not.toMatch(/^idempotency_/);
        expect(await codeOf(tooLong)).toBe('idempotency_key_invalid');
      } else {
        // GET and DELETE ignore the header (the client sends one only with POST, so set it by hand)
        const response = await client.request(operation.method, concretePath(operation), {
          headers: { 'Idempotency-Key': tooLong },
        });
        expect(response.body.error?.code ?? 'none').not.toMatch(/^idempotency_/);
      }
    },
  );
});
