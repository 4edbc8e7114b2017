import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '@/lib/core/free-port';
import { createTestDatabase, TEST_DATA_DIR } from '../setup/databases';
import { sessionBody } from '../helpers';

// A CI job approves its storefront's host without a person: `npm start --approved-website H` (repeatable) and
// SANDBOX_APPROVED_WEBSITES, read on every start by the demo merchant of a fresh database, which keeps what
// earlier starts approved. A value that is not a host stops the start, saying which.

const KEY = `sk_sandbox_${'CiWebsites'.repeat(4).slice(0, 32)}`;
let databaseUrl: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase(inject('adminUrl'), 'approved_websites');
});

afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** `npm start` as package.json runs it (scripts/start.mjs), on this file's database. */
async function npmStart(args: string[], env: Record<string, string>): Promise<Started & { port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs', '-p', String(port), '-H', '127.0.0.1', ...args], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATA_DIR: TEST_DATA_DIR,
      APP_URL: `http://127.0.0.1:${port}`,
      SANDBOX_API_KEY: KEY,
      WORKER: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output: () => output, exited };
}

async function untilServing(started: Started & { port: number }): Promise<string> {
  const base = `http://127.0.0.1:${started.port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited:\n${started.output()}`);
    const status = await fetch(`${base}/v1/payments`, { headers: { Authorization: `Bearer ${KEY}` } })
      .then((response) => response.status)
      .catch(() => 0);
    // 200 once the demo merchant and its key exist
    if (status === 200) return base;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not serve within 60 s:\n${started.output()}`);
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  await started.exited;
}

/** The status of a session whose return_url is on `host`. */
async function sessionOn(base: string, host: string): Promise<number> {
  const response = await fetch(`${base}/v1/checkout-sessions`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${KEY}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
    },
    body: JSON.stringify(sessionBody({ return_url: `http://${host}/thanks`, cancel_url: null })),
  });
  return response.status;
}

describe('the websites a start approves for the demo merchant', () => {
  it('approves --approved-website and SANDBOX_APPROVED_WEBSITES, and keeps them on later starts', async () => {
    const first = await npmStart(
      ['--approved-website', 'CI.example.test:8080', '--approved-website=second.example.test'],
      {
        SANDBOX_APPROVED_WEBSITES: 'preview.example.test, localhost:5173',
      },
    );
    let base = await untilServing(first);
    for (const host of ['ci.example.test:8080', 'second.example.test', 'preview.example.test', 'localhost:5173'])
      expect(await sessionOn(base, host), host).toBe(201);
    expect(await sessionOn(base, 'unlisted.example.test')).toBe(400);
    expect(await sessionOn(base, 'ci.example.test')).toBe(400);
    await stop(first);

    const second = await npmStart([], { SANDBOX_APPROVED_WEBSITES: 'later.example.test' });
    base = await untilServing(second);
    for (const host of ['later.example.test', 'ci.example.test:8080', 'preview.example.test', 'localhost:4000'])
      expect(await sessionOn(base, host), host).toBe(201);
    await stop(second);
  });

  it('refuses to start on a value that is not a host, naming it', async () => {
    const started = await npmStart(['--approved-website', 'ok.example.test'], {
      SANDBOX_APPROVED_WEBSITES: 'https://shop.example.test/checkout',
    });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain(
      'Refusing to start: SANDBOX_APPROVED_WEBSITES: "https://shop.example.test/checkout" is not a host',
    );
  });

  it('refuses --approved-website without a host', async () => {
    const started = await npmStart(['--approved-website'], {});
    expect(await started.exited).toBe(2);
    expect(started.output()).toContain('--approved-website needs a host');
  });
});
