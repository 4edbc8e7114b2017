import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '@/lib/api-keys/scopes';
import { findActiveApiKey } from '@/lib/api-keys/service';
import { db } from '@/lib/db';
import { TEST_DATA_DIR } from '@/test/setup/databases';
import { bundledCliForThisFile } from '@/test/support/bundled-cli';

// The admin CLI as an operator runs it: a real process, one JSON object on stdout with --json. The first
// command runs through tsx, as `npm run sandbox` does; the fifty others run the same source bundled once into
// one file (what the runnable package ships), which starts in a fraction of the second tsx takes to load it.
const run = promisify(execFile);

const THROUGH_TSX = ['--import', 'tsx', 'scripts/sandbox.ts'];
const bundled = [bundledCliForThisFile('admin')];
// V8's compiled code of the bundle, kept between its runs: each start parses less (Node's own cache, nothing of the CLI's)
const COMPILE_CACHE = { NODE_COMPILE_CACHE: path.join(TEST_DATA_DIR, 'sandbox-cli-compile-cache') };

type Outcome = { code: number; stdout: string; stderr: string };

// the CLI as a process, exit code and both streams, whether it succeeds or not
async function runSandbox(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...bundled, ...args], {
      env: { ...env, ...COMPILE_CACHE },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function sandboxThrough(cli: string[], ...args: string[]): Promise<{ json: any; stdout: string; code: number }> {
  try {
    const { stdout } = await run(process.execPath, [...cli, ...args, '--json'], {
      env: { ...process.env, ...COMPILE_CACHE },
    });
    return { json: JSON.parse(stdout), stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { json: JSON.parse(failed.stdout), stdout: failed.stdout, code: failed.code };
  }
}

const sandbox = (...args: string[]) => sandboxThrough(bundled, ...args);

describe('npm run sandbox', () => {
  it('runs every command and prints exactly one JSON object', async () => {
    expect((await sandboxThrough(THROUGH_TSX, 'migrate')).json).toEqual({ migrated: true });

    const merchant = await sandbox(
      'create-merchant',
      '--name',
      'CLI Shop',
      '--email',
      'cli@example.com',
      '--password',
      'correct horse',
    );
    expect(merchant.json).toEqual({ id: expect.stringMatching(/^acct_/), name: 'CLI Shop' });
    const id = merchant.json.id;

    expect((await sandbox('approve-website', '--merchant', id, '--host', 'Shop.CLI.test:8080')).json).toEqual({
      merchant_id: id,
      host: 'shop.cli.test:8080',
    });
    expect((await sandbox('set-methods', '--merchant', id, '--methods', 'usdc,card')).json).toEqual({
      merchant_id: id,
      payment_methods: ['card', 'usdc'],
    });
    expect((await sandbox('set-refund-policy', '--merchant', id, '--policy', 'manual')).json).toEqual({
      merchant_id: id,
      refund_policy: 'manual',
    });

    const key = await sandbox('create-key', '--merchant', id, '--scopes', 'payments:read,refund_requests:read');
    expect(key.json).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^sk_sandbox_[0-9A-Za-z]{32}$/),
      name: null,
      scopes: ['payments:read', 'refund_requests:read'],
    });
    expect((await findActiveApiKey(key.json.key))?.merchantId).toBe(id);
    const named = await sandbox('create-key', '--merchant', id, '--name', '  Nightly export  ');
    expect(named.json).toMatchObject({ name: 'Nightly export', scopes: [...SCOPES] });
    expect(await (await db()).apiKey.findUniqueOrThrow({ where: { id: named.json.id } })).toMatchObject({
      name: 'Nightly export',
    });
    const tooLong = await sandbox('create-key', '--merchant', id, '--name', 'x'.repeat(101));
    expect(tooLong.code).toBe(2);
    expect(tooLong.json).toEqual({ error: '--name: Keep the name under 100 characters.' });

    expect((await sandbox('revoke-key', '--key-id', key.json.id)).json).toEqual({ id: key.json.id, revoked: true });
    expect(await findActiveApiKey(key.json.key)).toBeNull();

    const stored = await (
      await db()
    ).merchant.findUniqueOrThrow({ where: { id }, include: { websites: true, users: true } });
    expect(stored).toMatchObject({ paymentMethods: ['card', 'usdc'], refundPolicy: 'manual' });
    expect(stored.users.map((u) => u.email)).toEqual(['cli@example.com']);
  }, 120_000);

  it('seeds an empty database once, returning the key only when it made it', async () => {
    // this file's database already has a merchant, so seed reports the first one without secrets
    const seeded = await sandbox('seed');
    expect(seeded.json).toMatchObject({ merchant_id: expect.stringMatching(/^acct_/), email: 'demo@example.com' });
    expect(seeded.json).not.toHaveProperty('api_key');
  }, 60_000);

  it('refuses bad input with an error object and a non-zero exit', async () => {
    const unknown = await sandbox('fly');
    expect(unknown.code).toBe(2);
    expect(unknown.json).toEqual({ error: 'unknown command: fly' });
    const badScope = await sandbox('create-key', '--merchant', 'acct_x', '--scopes', 'everything');
    expect(badScope.code).toBe(2);
    expect(badScope.json.error).toContain('unknown scopes: everything');
    const badHost = await sandbox('approve-website', '--merchant', 'acct_x', '--host', 'https://x.test/');
    expect(badHost.code).toBe(1);
    expect(badHost.stdout.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it.each([
    ['create-key --merchant acct_doesnotexist', 'no merchant acct_doesnotexist'],
    ['approve-website --merchant acct_doesnotexist --host shop.test', 'no merchant acct_doesnotexist'],
    ['set-methods --merchant acct_doesnotexist --methods card', 'no merchant acct_doesnotexist'],
    ['set-refund-policy --merchant acct_doesnotexist --policy manual', 'no merchant acct_doesnotexist'],
    ['revoke-key --key-id key_doesnotexist', 'no active key key_doesnotexist'],
  ])(
    'sandbox %s: one plain line, exit 1, nothing of the database’s internals',
    async (invocation, error) => {
      const args = invocation.split(' ');
      const [plain, json] = await Promise.all([
        runSandbox(args, process.env),
        runSandbox([...args, '--json'], process.env),
      ]);
      expect([plain.code, plain.stdout, plain.stderr]).toEqual([1, '', `error: ${error}\n`]);
      expect([json.code, json.stdout]).toEqual([1, `${JSON.stringify({ error })}\n`]);
    },
    60_000,
  );

  // mistakes an operator makes at the prompt; none may show a stack trace or reach the database, which
  // here is one that refuses every connection (reaching it would exit 1, not 2)
  const badInvocations: { invocation: string; error: string }[] = [
    { invocation: '', error: 'a command is required' },
    { invocation: 'fly', error: 'unknown command: fly' },
    { invocation: 'create-key --merchant acct_x --bogus', error: 'unknown option --bogus' },
    { invocation: 'create-key -x', error: 'unknown option -x' },
    { invocation: 'migrate --host shop.test', error: 'migrate does not take --host' },
    { invocation: 'migrate now', error: 'unexpected argument: now' },
    { invocation: 'create-key --merchant', error: '--merchant needs a value' },
    { invocation: 'create-key --merchant --scopes payments:read', error: '--merchant needs a value' },
    { invocation: 'seed --help=yes', error: '--help takes no value' },
    { invocation: 'create-merchant --email a@example.com', error: '--name is required' },
    { invocation: 'approve-website --merchant acct_x', error: '--host is required' },
    { invocation: 'create-key --scopes payments:read', error: '--merchant is required' },
    { invocation: 'set-refund-policy --merchant acct_x --policy sometimes', error: '--policy is automatic or manual' },
    {
      invocation: 'set-methods --merchant acct_x --methods cash',
      error: 'unknown payment methods: cash (use card, usdc, interac)',
    },
  ];

  it.each(badInvocations)(
    'sandbox $invocation: $error, then the usage, exit 2',
    async ({ invocation, error }) => {
      const args = invocation.split(' ').filter(Boolean);
      const env = { ...process.env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' };
      const [plain, json] = await Promise.all([runSandbox(args, env), runSandbox([...args, '--json'], env)]);
      const stackTrace = /^\s+at /m;

      expect(plain.code).toBe(2);
      expect(plain.stdout).toBe('');
      expect(plain.stderr.split('\n').slice(0, 3)).toEqual([
        `error: ${error}`,
        '',
        expect.stringMatching(/^usage: npm run sandbox/),
      ]);
      expect(plain.stderr).not.toMatch(stackTrace);

      expect(json.code).toBe(2);
      expect(json.stdout).toBe(`${JSON.stringify({ error })}\n`);
      expect(json.stderr).not.toMatch(stackTrace);
    },
    30_000,
  );
});
