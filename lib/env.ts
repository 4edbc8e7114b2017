import path from 'node:path';
import { z } from 'zod';

// Configuration, read once from the environment. .env.example lists every setting.
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'on');

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
  API_KEY_PEPPER: z.string().optional(),
  NEXTAUTH_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
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

/** The embedded database is a local development setup, so localhost webhooks are allowed there. */
export function webhooksAllowPrivateUrls(): boolean {
  const raw = process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
  if (raw !== undefined && raw !== '') return env().WEBHOOKS_ALLOW_PRIVATE_URLS;
  return !env().DATABASE_URL;
}

export function workerEnabled(): boolean {
  return (env().WORKER ?? 'on').toLowerCase() !== 'off';
}
