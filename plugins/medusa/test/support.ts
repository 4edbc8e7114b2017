import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { SandboxPaymentProviderService, type SandboxOptions } from '../src';

// What every test file needs: the sandbox the global setup started, plain calls to its API (the provider's
// own client is what is under test), and a provider with valid options.

export const sandboxUrl = inject('sandboxUrl');
export const apiKey = inject('apiKey');
export const medusaDatabaseUrl = inject('medusaDatabaseUrl');

export const SUCCEEDS = '4242424242424242';
export const DECLINED = '4000000000000002';

/** A made-up Medusa payment session id, unique per call. */
export function sessionId(): string {
  return `payses_${randomBytes(12).toString('hex')}`;
}

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
export async function pay(checkoutSessionId: string, cardNumber = SUCCEEDS): Promise<any> {
  const { status, json } = await api('POST', `/v1/test-helpers/checkout-sessions/${checkoutSessionId}/pay`, {
    payment_method: 'card',
    card_number: cardNumber,
  });
  if (status !== 200) throw new Error(`pay answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

export function options(overrides: Partial<SandboxOptions> = {}): SandboxOptions {
  return {
    apiKey,
    baseUrl: sandboxUrl,
    returnUrl: 'http://localhost:4000/checkout/return',
    cancelUrl: 'http://localhost:4000/checkout',
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    ...overrides,
  };
}

export function provider(overrides: Partial<SandboxOptions> = {}): SandboxPaymentProviderService {
  return new SandboxPaymentProviderService({}, options(overrides));
}

/** Polls until `check` answers something other than undefined (the sandbox's worker finishes refunds and deliveries). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
