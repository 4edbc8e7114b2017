export const SCOPES = [
  'checkout_sessions:write',
  'payments:read',
  'payments:write',
  'refund_requests:write',
  'refund_requests:read',
  'payment_links:write',
  'payment_links:read',
  'webhook_endpoints:write',
  'events:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
