// /docs#webhooks: after a failed attempt the next one waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h;
// the eighth failure is final. WEBHOOK_RETRY_SCALE shrinks the waits for tests.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long to wait after failed attempt number `attempt` (1-based), or null when it was the last. */
export function retryDelayMs(attempt: number, scale: number): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return Math.round(RETRY_DELAYS_MS[Math.max(attempt, 1) - 1] * scale);
}
