import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };

// Services and rules against a fresh database per file; API tests over HTTP against a real `next start` (a
// production build) sharing one database with the tests that set it up; the scale tests' clusters; and the
// runnable package, packed and installed.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'services',
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['test/setup/database.global.ts'],
          setupFiles: ['test/setup/fresh-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
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
          include: ['test/scale/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // each file runs its own cluster of processes; one at a time on two cores
          fileParallelism: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // `npm pack` (a standalone build), installed from the tarball and run as a merchant's CI would
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
