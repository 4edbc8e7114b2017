import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAndRun, packedProject, tarballContents, type PackedProject } from '../../packed-project';
import { options } from './support';

// The tarball scripts/pack.sh makes, installed into an empty project (../packed-project.ts), then imported by
// name under strict TypeScript, and loaded by name the way Medusa loads a provider from medusa-config.ts: its
// module provider loader resolves the name from the project and asks the service to check its options.

const run = promisify(execFile);
const PACKAGE = path.resolve(import.meta.dirname, '..');

let packed: PackedProject;
let project: string;

beforeAll(async () => {
  packed = await packedProject(PACKAGE, '@sandbox-payments/medusa');
  project = packed.project;
}, 300_000);

afterAll(() => packed?.remove());

/** Runs a CommonJS script in the project, as Medusa's own code would require the package; answers its JSON output. */
async function inProject(script: string): Promise<any> {
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
  return JSON.parse(stdout);
}

describe('the package', () => {
  it('ships the build, its types and README, the client bundled, and nothing else', async () => {
    expect(await tarballContents(packed.tarball)).toEqual({ missing: [], unexpected: [] });
    const { manifest } = packed;
    expect(manifest.peerDependencies).toEqual({ '@medusajs/framework': expect.any(String) });
    // the client's version, not the link to ../../client the repository's package.json has
    expect(manifest.dependencies).toEqual({ '@sandbox-payments/client': '0.1.0' });
    expect(manifest.bundleDependencies).toEqual(['@sandbox-payments/client']);
    expect(fs.existsSync(path.join(project, 'node_modules/@sandbox-payments/client'))).toBe(false);
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

  it('is imported by name under strict TypeScript: a payment module provider whose service is "sandbox"', async () => {
    const loaded = await compileAndRun(
      PACKAGE,
      project,
      `
        import provider, { SandboxPaymentProviderService, type SandboxOptions } from '@sandbox-payments/medusa';

        const options: SandboxOptions = {
          apiKey: 'sk_sandbox_${'a'.repeat(32)}',
          baseUrl: 'http://localhost:3000',
          returnUrl: 'http://localhost:8000/checkout/return',
          webhookSecret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
          captureMethod: 'manual',
        };
        const service = new SandboxPaymentProviderService({}, options);
        const identifier: string = SandboxPaymentProviderService.identifier;
        console.log(JSON.stringify({
          module: provider.module,
          identifier,
          provided: provider.services[0] === SandboxPaymentProviderService,
          captureMethod: service.captureMethod,
        }));
      `,
    );
    expect(loaded).toEqual({ module: 'payment', identifier: 'sandbox', provided: true, captureMethod: 'manual' });
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
