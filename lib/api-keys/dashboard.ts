import type { RequestContext } from '@/lib/core/context';
import { SCOPES, type Scope } from './scopes';
import { listApiKeys } from './service';

// API keys from the dashboard. The full key exists only in the answer to its creation; after that the
// dashboard knows its prefix, scopes and use, like everyone else.

/** What each scope lets a key do, in the words of /docs#authentication. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'checkout_sessions:write': 'Create and expire checkout sessions; test-helper payments',
  'payments:read': 'Read checkout sessions, payments and orders',
  'payments:write': 'Capture and cancel authorized payments',
  'refund_requests:write': 'Request and cancel refunds',
  'refund_requests:read': 'Read refund requests',
  'payment_links:write': 'Create and change payment links',
  'payment_links:read': 'Read payment links',
  'webhook_endpoints:write': 'Manage webhook endpoints',
  'events:read': 'Read events',
};

export { SCOPES };

export async function listKeys(context: RequestContext) {
  return listApiKeys(context);
}
