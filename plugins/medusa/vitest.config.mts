import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The provider against a sandbox server and a PostgreSQL (test/setup/sandbox.global.ts starts both from this
// repository unless SANDBOX_BASE_URL names a running one). `@` is the repository's root, whose embedded
// database the setup uses.
const repository = path.resolve(import.meta.dirname, '..', '..');

export default defineConfig({
  resolve: { alias: { '@': repository } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/sandbox.global.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one sandbox, one Medusa database: the files share them, one at a time on two cores
    fileParallelism: false,
    // importing Medusa's packages costs seconds: one worker keeps them for every file (each file's module
    // app is shut down and Medusa's module registry cleared after it)
    isolate: false,
    // Medusa's migrator and module loader print to the console: shown for a failing test only
    silent: 'passed-only',
  },
});
