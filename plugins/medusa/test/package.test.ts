import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { options } from './support';

// The tarball scripts/pack.sh makes, installed into an empty project, then loaded by name the way Medusa
// loads a provider from medusa-config.ts: its module provider loader resolves the name from the project and
// asks the service to check its options. The project gets Medusa's packages by a link to this package's
// own (installing the platform again would take minutes and prove nothing more).

const run = promisify(execFile);
const PACKAGE = path.resolve(import.meta.dirname, '..');

let workDir: string;
let project: string;
let tarball: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-medusa-package-'));
  const { stdout } = await run('bash', [path.join(PACKAGE, 'scripts/pack.sh'), workDir], { cwd: PACKAGE });
  tarball = stdout.trim().split('\n').at(-1)!;
  project = path.join(workDir, 'shop');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true }));
  // the peer (@medusajs/framework) is the project's to bring: linked below, after npm has written node_modules
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--legacy-peer-deps', tarball], {
    cwd: project,
  });
  fs.symlinkSync(path.join(PACKAGE, 'node_modules', '@medusajs'), path.join(project, 'node_modules', '@medusajs'));
}, 300_000);

afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** Runs a CommonJS script in the project, as Medusa's own code would require the package; answers its JSON output. */
async function inProject(script: string): Promise<any> {
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
  return JSON.parse(stdout);
}

describe('the package', () => {
  it('ships the build, its types and README, and nothing else', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/README.md');
    expect(
      files.filter((file) => !/^package\/(dist\/[\w-]+\.(js|d\.ts)|README\.md|package\.json)$/.test(file)),
    ).toEqual([]);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules/@sandbox-payments/medusa/package.json'), 'utf8'),
    );
    expect(manifest.peerDependencies).toEqual({ '@medusajs/framework': expect.any(String) });
    expect(Object.keys(manifest.dependencies)).toEqual(['standardwebhooks']);
  });

  it('is required by name: a default export of a payment module provider whose service is "sandbox"', async () => {
    const loaded = await inProject(`
      const provider = require('@sandbox-payments/medusa');
      console.log(JSON.stringify({
        module: provider.default.module,
        identifiers: provider.default.services.map((service) => service.identifier),
        named: typeof provider.SandboxPaymentProviderService,
        same: provider.default.services[0] === provider.SandboxPaymentProviderService,
      }));
    `);
    expect(loaded).toEqual({ module: 'payment', identifiers: ['sandbox'], named: 'function', same: true });
  });

  it('is loaded by Medusa’s provider loader from the project by name, and refuses bad options at start', async () => {
    const load = (providerOptions: unknown) =>
      inProject(`
        const { moduleProviderLoader } = require('@medusajs/framework/modules-sdk');
        const { createContainer } = require('@medusajs/framework/awilix');
        const registered = [];
        moduleProviderLoader({
          container: createContainer(),
          providers: [{ resolve: '@sandbox-payments/medusa', id: 'default', options: ${JSON.stringify(providerOptions)} }],
          registerServiceFn: async (klass, container, { id, options }) =>
            registered.push('pp_' + klass.identifier + '_' + id + ':' + typeof new klass({}, options).getWebhookActionAndData),
        }).then(
          () => console.log(JSON.stringify({ registered })),
          (error) => console.log(JSON.stringify({ error: error.message })),
        );
      `);
    expect(await load(options())).toEqual({ registered: ['pp_sandbox_default:function'] });
    const refused = await load({ ...options(), webhookSecret: undefined });
    expect(refused.error).toMatch(/Sandbox payments provider options are not valid: webhookSecret must be/);
  });
});
