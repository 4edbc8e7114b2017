import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestMerchant } from '@/test/helpers';

// `cd client && npm pack` on its own (prepack builds dist/ with tsc), installed into an empty folder as a
// merchant's project would have it: its runtime dependencies are copied from this repository's node_modules
// instead of downloaded, so the test needs no registry. Then imported by Node and type-checked by tsc.

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'client');
const folder = path.resolve(process.env.TEST_DATA_DIR ?? 'data/test', `client-package-${process.pid}`);
const modules = path.join(folder, 'node_modules');
let packed: { filename: string; files: { path: string }[] };

/** a package and, transitively, its dependencies, from the repository's node_modules */
function installFromRepository(name: string): void {
  const target = path.join(modules, name);
  if (fs.existsSync(target)) return;
  const source = path.join(ROOT, 'node_modules', name);
  fs.cpSync(source, target, { recursive: true, dereference: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) installFromRepository(dependency);
}

beforeAll(() => {
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(path.join(modules, '@sandbox-payments'), { recursive: true });
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', folder], {
    cwd: CLIENT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  [packed] = JSON.parse(output.slice(output.indexOf('[')));
  execFileSync('tar', ['-xzf', path.join(folder, packed.filename), '-C', path.join(modules, '@sandbox-payments')]);
  fs.renameSync(path.join(modules, '@sandbox-payments/package'), path.join(modules, '@sandbox-payments/client'));
  const manifest = JSON.parse(fs.readFileSync(path.join(modules, '@sandbox-payments/client/package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies)) installFromRepository(dependency);
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
}, 120_000);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('the packed client', () => {
  it('holds the build, its types, the README and the manifest, not the sources or tests', () => {
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/openapi.d.ts',
        'dist/cjs/package.json',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
      ]),
    );
    expect(files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md'].includes(file))).toEqual(
      [],
    );
  });

  it('is imported by Node from the tarball and calls the running server', async () => {
    const { key } = await createTestMerchant();
    const script = `
      import { Sandbox, SandboxInvalidRequestError } from '@sandbox-payments/client';
      const sandbox = new Sandbox({ apiKey: process.env.KEY, baseUrl: process.env.URL });
      const page = await sandbox.payments.list({ limit: 1 });
      const missing = await sandbox.payments.retrieve('pay_${'0'.repeat(24)}').catch((error) => error);
      console.log(JSON.stringify({ object: page.object, typed: missing instanceof SandboxInvalidRequestError }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folder,
      encoding: 'utf8',
      env: { ...process.env, KEY: key, URL: inject('serverUrl') },
    });
    expect(JSON.parse(output)).toEqual({ object: 'list', typed: true });
  });

  it('is required by Node from CommonJS too (the commerce plug-ins load it so), its errors typed', async () => {
    const { key } = await createTestMerchant();
    const script = `
      const { Sandbox, SandboxInvalidRequestError } = require('@sandbox-payments/client');
      const sandbox = new Sandbox({ apiKey: process.env.KEY, baseUrl: process.env.URL });
      sandbox.payments.retrieve('pay_${'0'.repeat(24)}').catch((error) => {
        console.log(JSON.stringify({ typed: error instanceof SandboxInvalidRequestError, status: error.status }));
      });
    `;
    const output = execFileSync(process.execPath, ['--input-type=commonjs', '-e', script], {
      cwd: folder,
      encoding: 'utf8',
      env: { ...process.env, KEY: key, URL: inject('serverUrl') },
    });
    expect(JSON.parse(output)).toEqual({ typed: true, status: 404 });
  });

  it('types the sample integration under --strict from its declarations', () => {
    const file = path.join(folder, 'integration.ts');
    fs.copyFileSync(path.join(CLIENT, 'examples/integration.ts'), file);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(errors).toEqual([]);
  }, 60_000);
});
