import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { expectPublishable } from './publishable';

// `npm pack --dry-run` of each library package, held to what publishing needs (./publishable.ts). The
// runnable server's tarball is a full standalone build: runnable-package.test.ts packs it once and holds
// it to the same rules. A package made ready to publish (a plug-in under plugins/) joins with its folder here.
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LIBRARY_PACKAGES = ['client'];

describe.each(LIBRARY_PACKAGES)('npm pack --dry-run of %s', (folder) => {
  it('is ready to publish under the project scope', () => {
    const output = execFileSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: path.join(ROOT, folder),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [packed] = JSON.parse(output.slice(output.indexOf('['))) as { files: { path: string }[] }[];
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8'));
    expectPublishable(
      manifest,
      packed.files.map((file) => file.path),
      folder,
    );
  }, 120_000);
});
