import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { bundleCli } from '@/scripts/bundle-cli';
import { TEST_DATA_DIR } from '@/test/setup/databases';

/**
 * The admin CLI (scripts/sandbox.ts) bundled into one file before this test file's tests, as the runnable
 * package ships it, and removed after them: it starts in a fraction of the time tsx takes to load the source.
 * Returns the bundle's path, to run with `node`. The bundle sits inside the repository, so that what it leaves
 * to Node to find (PostgreSQL's binaries) resolves as from the source.
 */
export function bundledCliForThisFile(label: string): string {
  const bundle = path.join(TEST_DATA_DIR, `sandbox-cli-${label}-${process.pid}.mjs`);
  beforeAll(() => bundleCli(bundle), 60_000);
  afterAll(() => fs.rmSync(bundle, { force: true }));
  return bundle;
}
