import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * scripts/sandbox.ts and everything it imports in one ES module at `outfile`; only the PostgreSQL binaries
 * stay outside. The runnable package ships it (scripts/package.ts); scripts/sandbox.test.ts runs it too.
 */
export async function bundleCli(outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, 'scripts', 'sandbox.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    // pg's optional native binding, which it loads only when asked for
    external: ['pg-native'],
    // CommonJS dependencies (pg) require Node's built-ins, which an ES module has no `require` for
    banner: {
      js: "import { createRequire as sandboxCreateRequire } from 'node:module'; const require = sandboxCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
