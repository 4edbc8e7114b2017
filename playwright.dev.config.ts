import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './scripts/chromium';

// The one story run under `next dev` (e2e-dev/): it starts and stops its own dev server, to hold a page
// open through the dev watcher and to press Ctrl-C. Its data folder is inside the project, like the
// default ./data. `npm test` runs it after the other specs (scripts/test.sh).
export const E2E_DEV_PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
export const E2E_DEV_DATA_DIR = 'data/e2e-dev';

export default defineConfig({
  testDir: 'e2e-dev',
  workers: 1,
  retries: 0,
  // a cold dev server compiles each route on its first request: minutes on a busy 2-core machine
  timeout: 420_000,
  outputDir: process.env.E2E_OUTPUT_DIR ? `${process.env.E2E_OUTPUT_DIR}-dev` : 'test-results/dev',
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || findChromium()?.path,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium-dev', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
