import { createHash } from 'node:crypto';

// The USDC deposit details shown on the hosted page. The address is a sandbox address: derived from the
// session id so that a reload shows the same one, and owned by nobody.

export const USDC_NETWORK = 'Ethereum (sandbox)';

export function sandboxDepositAddress(checkoutSessionId: string): string {
  const digest = createHash('sha256').update(`sandbox-usdc-deposit:${checkoutSessionId}`).digest('hex');
  return `0x${digest.slice(0, 40)}`;
}
