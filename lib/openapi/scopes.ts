import type { Scope } from '@/lib/api-keys/scopes';

// What each scope of /docs#authentication is for, in a few words; the operations say which endpoints need it.
export const SCOPE_GRANTS: Record<Scope, string> = {
  'checkout_sessions:write': 'create and expire checkout sessions; the test helpers',
  'payments:read': 'read checkout sessions and payments',
  'payments:write': 'capture and cancel authorized payments',
  'refund_requests:write': 'request and cancel refunds',
  'refund_requests:read': 'read refund requests',
  'payment_links:write': 'create and change payment links',
  'payment_links:read': 'read payment links',
  'webhook_endpoints:write': 'manage webhook endpoints',
  'events:read': 'read events',
};
