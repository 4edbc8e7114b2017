import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './scripts/chromium';

// Specs run in the Chromium that `npm test` resolved (CHROMIUM_PATH; scripts/chromium.ts finds or installs
// one) against a production build (`npm test` builds first), served with a
// fresh embedded database under data/e2e. A second server runs with the production defaults of every
// abuse control and believes no proxy, for e2e/abuse.spec.ts; the main one trusts loopback as its proxy,
// so a story can speak for another client with X-Forwarded-For, and lets its stories sign up freely.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = process.env.E2E_DATA_DIR ?? 'data/e2e';
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;
export const E2E_ABUSE_BASE_URL = `http://127.0.0.1:${PORT + 1}`;
export const E2E_ABUSE_DATA_DIR = `${DATA_DIR}-abuse`;
export const E2E_API_KEY = 'sk_sandbox_E2eE2eE2eE2eE2eE2eE2eE2eE2eE2eE2';

const serverEnv = (baseUrl: string, dataDir: string) => ({
  DATA_DIR: dataDir,
  APP_URL: baseUrl,
  NEXTAUTH_URL: baseUrl,
  SANDBOX_API_KEY: E2E_API_KEY,
  REFUND_PROCESSING_DELAY_MS: '500',
  WEBHOOK_RETRY_SCALE: '0.001',
  WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: 'warn',
});

const server = (port: number, dataDir: string, env: Record<string, string>) => ({
  command: `npx tsx scripts/reset-data-dir.ts ${dataDir} && node node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`,
  url: `http://127.0.0.1:${port}/`,
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env,
});

// Spec files run side by side (E2E_WORKERS at a time, two by default), each file's stories in order: a story
// makes its own merchant or its own orders, and speaks for its own client address where throttles count, so
// files share the server and not their state; a story that needs other settings starts its own server. In a
// headless shell and without the trace's screencast, one worker leaves the 2-core machine's cores idle part of
// the time: the whole run took 13.4 min with two against 20.3 min with one, all stories passing both times
// with other work on the machine (docs/testing.md). E2E_WORKERS=1 runs one file at a time.
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
const chrome = { ...devices['Desktop Chrome'], channel: undefined };

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    // no trace: recording one (a snapshot of the DOM at every step) cost a tenth of the stories' CPU, passed or
    // failed, for a file no one opens from CI's output. A failed story keeps a screenshot of its end; to trace
    // one, run it again with --trace retain-on-failure (docs/testing.md)
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // run on its own, `npx playwright test` looks for a browser the same way but installs none
      executablePath: process.env.CHROMIUM_PATH || findChromium()?.path,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // the stories' shop and our pages share a renderer instead of a process each: less of the browser's
        // CPU (docs/testing.md), and nothing a story checks depends on it (framing is refused by our headers)
        '--disable-site-isolation-trials',
        '--disable-features=site-per-process,IsolateOrigins',
      ],
    },
  },
  projects: [
    // the throttle stories, on a server of their own that no other story calls, first: each counts its own
    // client's requests (count-bound, or 20 within a minute, which a loaded machine fits), so they run beside
    // the others
    { name: 'abuse', use: chrome, testMatch: /abuse\.spec\.ts/ },
    { name: 'chromium', use: chrome, testIgnore: /abuse\.spec\.ts/ },
  ],
  webServer: [
    server(PORT, DATA_DIR, {
      ...serverEnv(E2E_BASE_URL, DATA_DIR),
      TRUST_PROXY: 'loopback',
      SIGN_UPS_PER_HOUR: '1000',
    }),
    server(PORT + 1, E2E_ABUSE_DATA_DIR, serverEnv(E2E_ABUSE_BASE_URL, E2E_ABUSE_DATA_DIR)),
  ],
});
