import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DefaultLogger, LanguageCode, LogLevel, mergeConfig, type InitialData } from '@vendure/core';
import {
  createTestEnvironment,
  registerInitializer,
  SqljsInitializer,
  testConfig,
  type SimpleGraphQLClient,
  type TestServer,
} from '@vendure/testing';
import { inject } from 'vitest';
import { freePort } from '@/lib/core/free-port';
import { SandboxPaymentsPlugin, type SandboxPaymentsOptions } from '../dist';

// What every test file needs: the sandbox the global setup started, plain calls to its API (the plugin's
// own client is what is under test), and a whole Vendure server with the plugin, whose sandbox webhook
// endpoint points at the server's webhook route.

export const sandboxUrl = inject('sandboxUrl');
export const apiKey = inject('apiKey');

export async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** Pays a checkout session through the sandbox's test helper, as the hosted page would; answers the payment. */
export async function pay(checkoutSessionId: string, cardNumber = '4242424242424242'): Promise<any> {
  const { status, json } = await api('POST', `/v1/test-helpers/checkout-sessions/${checkoutSessionId}/pay`, {
    payment_method: 'card',
    card_number: cardNumber,
  });
  if (status !== 200) throw new Error(`pay answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

const initialData: InitialData = {
  defaultLanguage: LanguageCode.en,
  defaultZone: 'Americas',
  taxRates: [{ name: 'Standard', percentage: 0 }],
  shippingMethods: [{ name: 'Standard Shipping', price: 500 }],
  paymentMethods: [{ name: 'Sandbox Payments', handler: { code: 'sandbox-payments', arguments: [] } }],
  countries: [{ name: 'United States of America', code: 'US', zone: 'Americas' }],
  collections: [],
};

export type Vendure = { server: TestServer; shop: SimpleGraphQLClient; admin: SimpleGraphQLClient; webhookUrl: string };

/** A Vendure server with the plugin on a free port, seeded with one product, and a sandbox endpoint for its webhooks. */
export async function startVendure(options: Partial<SandboxPaymentsOptions> = {}): Promise<Vendure> {
  const dataDir = path.join(import.meta.dirname, '..', 'node_modules', '.cache', 'sqljs');
  fs.mkdirSync(dataDir, { recursive: true });
  registerInitializer('sqljs', new SqljsInitializer(dataDir));
  const port = await freePort();
  const endpoint = await api('POST', '/v1/webhook-endpoints', {
    url: `http://127.0.0.1:${port}/sandbox-payments/webhooks`,
    events: ['*'],
  });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint answered ${endpoint.status}`);
  const config = mergeConfig(testConfig, {
    apiOptions: { port },
    logger: new DefaultLogger({ level: LogLevel.Warn }),
    plugins: [
      SandboxPaymentsPlugin.init({
        apiKey,
        baseUrl: sandboxUrl,
        returnUrl: 'http://localhost:4000/checkout/return',
        webhookSecret: endpoint.json.secret,
        ...options,
      }),
    ],
  });
  const { server, shopClient, adminClient } = createTestEnvironment(config);
  await server.init({
    initialData,
    productsCsvPath: path.join(import.meta.dirname, 'fixtures', 'products.csv'),
    customerCount: 1,
  });
  await adminClient.asSuperAdmin();
  return { server, shop: shopClient, admin: adminClient, webhookUrl: endpoint.json.url };
}

/** Polls until `check` answers something other than undefined (the sandbox's worker delivers the webhooks). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
