import { describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { Sandbox, type Declared } from '../src/index';

// The client has one method per /v1 operation of lib/openapi/operations.ts: a new endpoint without a
// client method (client/src/client.ts) fails here.

function declaredMethods(node: unknown, name: string, found: Map<string, string>): Map<string, string> {
  if (typeof node === 'function' && 'operation' in node) {
    const { method, path } = node.operation as Declared;
    found.set(`${method} ${path}`, name);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) declaredMethods(value, name ? `${name}.${key}` : key, found);
  }
  return found;
}

const client = new Sandbox({ apiKey: 'sk_sandbox_unused', baseUrl: 'http://127.0.0.1:1' });
const methods = declaredMethods(client, '', new Map());

describe('the client covers the API', () => {
  it('has a method for every /v1 operation, and none for an operation that does not exist', () => {
    const operations = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(operations.filter((operation) => !methods.has(operation))).toEqual([]);
    expect([...methods.keys()].filter((operation) => !operations.includes(operation))).toEqual([]);
    expect(methods.size).toBe(API_OPERATIONS.length);
  });

  it('sends an Idempotency-Key on every POST, which every POST of /v1 accepts', () => {
    const posts = API_OPERATIONS.filter((operation) => operation.method === 'POST');
    expect(posts.filter((operation) => operation.idempotency === 'none').map((operation) => operation.path)).toEqual(
      [],
    );
  });

  it('names the methods as the README does', () => {
    expect(methods.get('POST /v1/checkout-sessions')).toBe('checkoutSessions.create');
    expect(methods.get('POST /v1/test-helpers/checkout-sessions/{id}/pay')).toBe('testHelpers.checkoutSessions.pay');
    expect(methods.get('DELETE /v1/webhook-endpoints/{id}')).toBe('webhookEndpoints.del');
  });
});
