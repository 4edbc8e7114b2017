import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };

// Services and rules against a fresh database per file; API tests over HTTP against a real `next start` (a
// production build) sharing one database with the tests that set it up; the scale tests' clusters; and the
// runnable package, packed and installed.
//
// The services and API files run two at a time (each has its own database, or its own merchants on the
// shared server, and most of their time is spent waiting on the server, the database or a timer), in workers
// they share: one file after another in each, its own modules and state made anew (test/setup/file-state.ts),
// node_modules imported once per worker (isolated files took twice the CPU, most of it importing); then the
// scale clusters and the package, one file at a time: they measure rates, latencies and a cold start across
// processes of their own, which another file's processes would disturb. (`npm test` runs the scale clusters
// in a second run, with work at the lowest priority beside them: scripts/test.sh.)
const TWO_AT_A_TIME = { maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 } };
const ONE_AT_A_TIME = { maxWorkers: 1, sequence: { groupOrder: 1 } };
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'services',
          ...TWO_AT_A_TIME,
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['test/setup/database.global.ts'],
          setupFiles: ['test/setup/fresh-database.ts'],
          // as the API's: a file of password checks (bcrypt) takes several times as long beside another file
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          ...TWO_AT_A_TIME,
          // the client package's tests call the same server
          include: ['test/api/**/*.test.ts', 'client/test/**/*.test.ts'],
          globalSetup: ['test/setup/database.global.ts', 'test/setup/server.global.ts'],
          setupFiles: ['test/setup/server-database.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'scale',
          ...ONE_AT_A_TIME,
          include: ['test/scale/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // `npm pack` (a standalone build), installed from the tarball and run as a merchant's CI would
          name: 'package',
          ...ONE_AT_A_TIME,
          include: ['test/package/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
