import { expect } from 'vitest';

// What every package this repository publishes must be, checked on what `npm pack` puts in its tarball
// (RELEASING.md publishes that tarball): public under the project's scope, provenance-ready (npm's
// provenance ties the package to the repository named here), with an engines range, and every file its
// manifest points at (exports, bin, main, types) inside, nothing of the sources, tests or data beside.

export const SCOPE = '@sandbox-payments/';

type Manifest = {
  name?: string;
  private?: boolean;
  version?: string;
  description?: string;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: string;
  engines?: { node?: string };
  exports?: unknown;
  bin?: Record<string, string>;
  main?: string;
  types?: string;
  publishConfig?: { access?: string; provenance?: boolean };
};

/** Every file path a manifest points at: its exports' targets, bin, main and types. */
function pointedAt(manifest: Manifest): string[] {
  const targets: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  walk(manifest.bin);
  walk(manifest.main);
  walk(manifest.types);
  return targets.map((target) => target.replace(/^\.\//, ''));
}

export function expectPublishable(manifest: Manifest, files: string[], directory?: string): void {
  expect(manifest.name).toMatch(new RegExp(`^${SCOPE}[a-z0-9-]+$`));
  expect(manifest.private, `${manifest.name} must not be private`).toBeFalsy();
  expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
  expect(manifest.description?.length).toBeGreaterThan(20);
  expect(manifest.license).toBeTruthy();
  expect(manifest.repository).toEqual({
    type: 'git',
    url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/),
    ...(directory ? { directory } : {}),
  });
  expect(manifest.homepage).toMatch(/^https:\/\//);
  expect(manifest.bugs).toMatch(/^https:\/\//);
  expect(manifest.engines?.node).toMatch(/^>=\d+/);
  expect(manifest.exports).toBeTruthy();
  expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
  expect(files).toContain('package.json');
  expect(files).toContain('README.md');
  for (const target of pointedAt(manifest)) expect(files, `${manifest.name} points at ${target}`).toContain(target);
  // our own files only: what a bundled dependency ships is its own affair
  const strays = files.filter(
    (file) =>
      !file.includes('node_modules/') &&
      (/(^|\/)(test|tests|e2e|data|\.sandbox-payments)\//.test(file) ||
        /\.test\.[cm]?[jt]s$/.test(file) ||
        /(^|\/)\.env/.test(file) ||
        (/\.ts$/.test(file) && !/\.d\.ts$/.test(file))),
  );
  expect(strays, `${manifest.name} would publish these`).toEqual([]);
}
