import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The plugin inside a real Vendure server (@vendure/testing, SQLite through sql.js) against a sandbox server
// (test/setup/sandbox.global.ts starts one from this repository unless SANDBOX_BASE_URL names a running one).
// The tests load the built plugin (dist/, which `npm test` builds first): Vendure's dependency injection
// needs the decorator metadata TypeScript's compiler emits. `@` is the repository's root.
const repository = path.resolve(import.meta.dirname, '..', '..');

export default defineConfig({
  resolve: { alias: { '@': repository } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/sandbox.global.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one sandbox: the files share it, one at a time on two cores; each file has its own Vendure server
    // (the plugin's options are static, so each capture mode gets a fresh module graph)
    fileParallelism: false,
    // Vendure's bootstrap prints to the console: shown for a failing test only
    silent: 'passed-only',
  },
});
