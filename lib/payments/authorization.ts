// How long an authorization (requires_capture) holds before it is canceled: the statements of
// lib/payments/repository.ts enforce it, and the dashboard shows when it ends. Pure, so browser code can import it.

export const AUTHORIZATION_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When an authorization made at `authorizedAt` (on its account's clock) is canceled if not captured by then. */
export function authorizationExpiresAt(authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + AUTHORIZATION_DAYS * DAY_MS);
}
