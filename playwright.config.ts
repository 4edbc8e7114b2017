import { defineConfig, devices } from '@playwright/test';

// Specs run in Debian's Chromium against a production build (`npm test` builds first), served with a
// fresh embedded database under data/e2e.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = process.env.E2E_DATA_DIR ?? 'data/e2e';
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;
export const E2E_API_KEY = 'sk_sandbox_E2eE2eE2eE2eE2eE2eE2eE2eE2eE2eE2';

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: `npx tsx scripts/reset-data-dir.ts ${DATA_DIR} && node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `${E2E_BASE_URL}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATA_DIR,
      APP_URL: E2E_BASE_URL,
      NEXTAUTH_URL: E2E_BASE_URL,
      SANDBOX_API_KEY: E2E_API_KEY,
      REFUND_PROCESSING_DELAY_MS: '500',
      WEBHOOK_RETRY_SCALE: '0.001',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'warn',
    },
  },
});
