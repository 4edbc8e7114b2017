import { inject } from 'vitest';
import { createTestMerchant, uniqueRef } from '@/test/helpers';
import { Sandbox, type components, type SandboxConfig } from '../../src/index';

/** A fresh merchant (made through the services, as the API tests do) and a client with its key. */
export async function testClient(
  options: Parameters<typeof createTestMerchant>[0] & Partial<SandboxConfig> = {},
): Promise<{ sandbox: Sandbox; key: string }> {
  const { key } = await createTestMerchant(options);
  const sandbox = new Sandbox({
    apiKey: key,
    baseUrl: options.baseUrl ?? inject('serverUrl'),
    maxNetworkRetries: options.maxNetworkRetries,
    timeout: options.timeout,
  });
  return { sandbox, key };
}

type CreateCheckoutSession = components['schemas']['CreateCheckoutSessionRequest'];

/** test/helpers.ts's session body, typed as the client takes it */
export function sessionBody(overrides: Partial<CreateCheckoutSession> = {}): CreateCheckoutSession {
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
