import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The README's shell blocks (test/readme), run by `npm test` on their own after the other suites: they
// start `npm run dev` and install the client package's build tools in client/, which must not happen
// under the feet of tests running beside them.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: { name: 'readme', include: ['test/readme/**/*.test.ts'], testTimeout: 30 * 60_000, hookTimeout: 60_000 },
});
