import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES, type Scope } from '@/lib/api-keys/scopes';
import { db } from '@/lib/db';
import type { PaymentMethod, RefundPolicy } from '@/lib/generated/prisma/client';
import { createMerchant, setPaymentMethods, setRefundPolicy } from '@/lib/merchants/service';
import { contextOf } from '@/test/context';

export type TestMerchant = { merchantId: string; key: string };

/** A merchant with approved websites and a key, made through the services as an operator would. */
export async function createTestMerchant(
  options: { hosts?: string[]; methods?: PaymentMethod[]; policy?: RefundPolicy; scopes?: Scope[]; name?: string } = {},
): Promise<TestMerchant> {
  const client = await db();
  const merchant = await createMerchant(client, {
    name: options.name ?? 'Test Shop',
    hosts: options.hosts ?? ['shop.example.com', 'localhost:4000'],
  });
  if (options.methods) await setPaymentMethods(contextOf(client, merchant.id), options.methods);
  if (options.policy) await setRefundPolicy(contextOf(client, merchant.id), options.policy);
  const { key } = await createApiKey(contextOf(client, merchant.id), options.scopes ?? [...SCOPES]);
  return { merchantId: merchant.id, key };
}

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

/** A client for the running server (or another at `base`), speaking HTTP as a merchant's code would. */
export function apiClient(key?: string, base = inject('serverUrl')) {
  async function request<T = any>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      rawBody?: string | Uint8Array;
      headers?: Record<string, string>;
      idempotencyKey?: string | null;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}) };
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] = 'application/json';
    }
    if (method === 'POST' && options.idempotencyKey !== null)
      headers['Idempotency-Key'] = options.idempotencyKey ?? randomUUID();
    Object.assign(headers, options.headers);
    const response = await fetch(`${base}${path}`, { method, headers, body: body as BodyInit | undefined });
    // an event stream stays open: its answer is its status and headers (test/support/event-stream-client.ts reads one)
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: '' as T, headers: response.headers };
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
  return {
    get: <T = any>(path: string, options?: Parameters<typeof request>[2]) => request<T>('GET', path, options),
    post: <T = any>(path: string, body?: unknown, options?: Parameters<typeof request>[2]) =>
      request<T>('POST', path, { ...options, body }),
    request,
  };
}

let counter = 0;
export function uniqueRef(prefix = 'order'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomUUID().slice(0, 6)}`;
}

export function sessionBody(overrides: Record<string, unknown> = {}) {
  return {
    order_reference: uniqueRef(),
    currency: 'USD',
    items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
    shipping_amount: 500,
    tax_amount: 250,
    amount: 3750,
    return_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
    ...overrides,
  };
}

/** Polls until check passes or the time is up; for the worker's asynchronous effects. */
export async function eventually<T>(
  fn: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await fn();
  while (!check(last)) {
    if (Date.now() > deadline) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await fn();
  }
  return last;
}
