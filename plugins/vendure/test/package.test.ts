import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAndRun, packedProject, tarballContents, type PackedProject } from '../../packed-project';

// The tarball scripts/pack.sh makes, installed into an empty project (../packed-project.ts) and imported by
// name under strict TypeScript, as a vendure-config.ts would: SandboxPaymentsPlugin.init checks its options
// and answers the plugin, whose payment method handler has the code the admin's payment method names.

const PACKAGE = path.resolve(import.meta.dirname, '..');

let packed: PackedProject;

beforeAll(async () => {
  packed = await packedProject(PACKAGE, '@sandbox-payments/vendure');
}, 300_000);

afterAll(() => packed?.remove());

describe('the package', () => {
  it('ships the build, its types and README, the client bundled, and nothing else', async () => {
    expect(await tarballContents(packed.tarball)).toEqual({ missing: [], unexpected: [] });
    const { manifest } = packed;
    expect(Object.keys(manifest.peerDependencies ?? {}).sort()).toEqual([
      '@nestjs/common',
      '@nestjs/graphql',
      '@vendure/core',
      'graphql',
    ]);
    // the client's version, not the link to ../../client the repository's package.json has
    expect(manifest.dependencies).toEqual({ '@sandbox-payments/client': '0.1.0' });
    expect(manifest.bundleDependencies).toEqual(['@sandbox-payments/client']);
    expect(fs.existsSync(path.join(packed.project, 'node_modules/@sandbox-payments/client'))).toBe(false);
  });

  it('is imported by name under strict TypeScript: SandboxPaymentsPlugin.init and the sandbox-payments handler', async () => {
    const loaded = await compileAndRun(
      PACKAGE,
      packed.project,
      `
        import type { VendureConfig } from '@vendure/core';
        import { HANDLER_CODE, SandboxPaymentsPlugin, sandboxPaymentsHandler } from '@sandbox-payments/vendure';

        const plugins: VendureConfig['plugins'] = [
          SandboxPaymentsPlugin.init({
            apiKey: 'sk_sandbox_${'a'.repeat(32)}',
            baseUrl: 'http://localhost:3000',
            returnUrl: 'http://localhost:4200/checkout/confirmation',
            webhookSecret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
            captureMethod: 'manual',
          }),
        ];
        let refused = '';
        try {
          SandboxPaymentsPlugin.init({ apiKey: 'pk_live_x', baseUrl: '', returnUrl: '', webhookSecret: '' });
        } catch (error) {
          refused = error instanceof Error ? error.message : String(error);
        }
        console.log(JSON.stringify({
          plugin: plugins?.[0] === SandboxPaymentsPlugin,
          captureMethod: SandboxPaymentsPlugin.options.captureMethod,
          handler: sandboxPaymentsHandler.code,
          code: HANDLER_CODE,
          refused,
        }));
      `,
    );
    expect(loaded).toEqual({
      plugin: true,
      captureMethod: 'manual',
      handler: 'sandbox-payments',
      code: 'sandbox-payments',
      refused: expect.stringMatching(/^SandboxPaymentsPlugin options are not valid: apiKey must be/),
    });
  });
});
