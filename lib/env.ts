import path from 'node:path';
import { z } from 'zod';

// Configuration, read once from the environment. .env.example lists every setting.
// Unset or empty stays undefined, so that its default can depend on other settings.
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', ''])
  .optional()
  .transform((value) =>
    value === undefined || value === '' ? undefined : value === 'true' || value === '1' || value === 'on',
  );

const envSchema = z.object({
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  APP_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().default(3000),
  WORKER: z.string().optional(),
  REFUND_PROCESSING_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().default(1),
  WEBHOOKS_ALLOW_PRIVATE_URLS: booleanFlag,
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().positive().default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().positive().default(200),
  /** A merchant's keys together; unset, twice a key's limit */
  RATE_LIMIT_MERCHANT_PER_SECOND: z.coerce.number().int().positive().optional(),
  RATE_LIMIT_MERCHANT_BURST: z.coerce.number().int().positive().optional(),
  API_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(20),
  SIGN_UPS_PER_HOUR: z.coerce.number().int().positive().default(5),
  LINK_CHECKOUTS_PER_MINUTE: z.coerce.number().int().positive().default(20),
  CHECKOUT_DECLINES_PER_SESSION: z.coerce.number().int().positive().default(10),
  /** The proxies in front of us (addresses, CIDR ranges or "loopback"); unset, no X-Forwarded-For is believed */
  TRUST_PROXY: z.string().optional(),
  SANDBOX_API_KEY: z.string().optional(),
  /** Hosts the demo merchant approves on every start, comma-separated (lib/merchants/seed.ts reads them) */
  SANDBOX_APPROVED_WEBSITES: z.string().optional(),
  API_KEY_PEPPER: z.string().optional(),
  NEXTAUTH_SECRET: z.string().optional(),
  /** Request logs, events (with their webhook deliveries) and webhook attempts are deleted this many days on */
  RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** GET /v1/events/stream: a `: ping` comment this often, and the stream ends (the client reconnects) after the most */
  EVENT_STREAM_PING_MS: z.coerce.number().int().min(10).default(15_000),
  EVENT_STREAM_MAX_SECONDS: z.coerce.number().int().positive().default(3600),
  /** Open streams each process holds at most for one merchant, and for one client address (then 429) */
  EVENT_STREAMS_PER_MERCHANT: z.coerce.number().int().positive().default(20),
  EVENT_STREAMS_PER_ADDRESS: z.coerce.number().int().positive().default(50),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Answer each /v1 request with its database round trips in Db-Round-Trips (for tests and profiling) */
  DB_COUNT_ROUND_TRIPS: booleanFlag,
});

export type Env = z.infer<typeof envSchema>;

let cached: (Env & { APP_URL: string }) | undefined;

export function env(): Env & { APP_URL: string } {
  if (!cached) {
    const parsed = envSchema.parse(process.env);
    // hosted page URLs point at this server unless told otherwise
    cached = { ...parsed, APP_URL: parsed.APP_URL ?? `http://localhost:${parsed.PORT}` };
  }
  return cached;
}

export function dataDir(): string {
  return path.resolve(env().DATA_DIR);
}

/**
 * Webhooks to localhost and private networks are for a developer's own machine, which is what an APP_URL
 * on a loopback address says this is. Anywhere else (the embedded database included: it is what a small
 * deployment on the internet runs too), any merchant could point an endpoint at an internal service and
 * read its answers in the delivery log, so they are allowed only when WEBHOOKS_ALLOW_PRIVATE_URLS says so.
 */
export function webhooksAllowPrivateUrls(
  settings: { WEBHOOKS_ALLOW_PRIVATE_URLS?: boolean; APP_URL: string } = env(),
): boolean {
  return settings.WEBHOOKS_ALLOW_PRIVATE_URLS ?? isLoopbackUrl(settings.APP_URL);
}

/** Whether a URL's host is localhost, in 127.0.0.0/8 or ::1 (the URL parser has already normalised 127.1, [0::1]…). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function workerEnabled(): boolean {
  return (env().WORKER ?? 'on').toLowerCase() !== 'off';
}
