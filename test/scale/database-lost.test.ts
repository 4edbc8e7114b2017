import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabaseIfMissing } from '@/lib/db';
import { ensureEmbeddedServer, resolveClusterDir, runningEmbeddedServer, stopEmbeddedServer } from '@/lib/db/embedded';
import { freePort } from '@/lib/core/free-port';
import { killHard } from './cluster';

// A web process left behind: the test runner that started it was killed, so no one reads its log any more,
// and then its PostgreSQL was stopped under it (a killed `npm test` stops the databases). Such a process
// once spun at half a core for half an hour and ignored SIGTERM: each log line about the lost database
// failed on the closed pipe, and Next.js logged that failure to the same pipe, for ever. It must idle, say
// honestly that it is not ready, and exit on SIGTERM; and a database stopped on purpose stays stopped.

const ROOT = path.resolve(process.env.SCALE_DATA_DIR ?? 'data/test-scale', `database-lost-${process.pid}`);
const KEY = `sk_sandbox_${randomBytes(16).toString('hex')}`;

type Server = { url: string; child: ChildProcess };
const servers: Server[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  for (const server of servers) await killHard(server.child);
  for (const dataDir of dataDirs) {
    await stopEmbeddedServer(dataDir);
    fs.rmSync(path.dirname(resolveClusterDir(dataDir)), { recursive: true, force: true });
  }
  fs.rmSync(ROOT, { recursive: true, force: true });
});

/**
 * `next start` with the worker on (the default) and its log on a pipe, as under Playwright's webServer, or in
 * `logFile`.
 */
async function startServer(env: Record<string, string>, logFile?: string): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const log = logFile === undefined ? undefined : fs.openSync(logFile, 'w');
  const child = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: { ...inherited, NODE_ENV: 'production', APP_URL: url, SANDBOX_API_KEY: KEY, LOG_LEVEL: 'warn', ...env },
      stdio: log === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log],
    },
  );
  if (log !== undefined) fs.closeSync(log);
  child.stdout?.resume();
  child.stderr?.resume();
  const server = { url, child };
  servers.push(server);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${url} was not ready within 90 s`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function createSessions(server: Server): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${server.url}/v1/checkout-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({
        order_reference: `lost-${i}`,
        currency: 'USD',
        items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
        amount: 1200,
        return_url: 'https://shop.example.com/thanks',
      }),
    });
    expect(response.status).toBe(201);
  }
}

/** The runner that read the server's log (if on a pipe) is gone, and then its database stops. */
async function loseLogAndDatabase(server: Server, dataDir: string): Promise<void> {
  server.child.stdout?.destroy();
  server.child.stderr?.destroy();
  await stopEmbeddedServer(dataDir);
  // the worker's next ticks, the listener's reconnects and the rate limits' settlements all fail by now
  await new Promise((resolve) => setTimeout(resolve, 3000));
}

/** Share of one core the process used over `ms`, from /proc; undefined off Linux. */
async function cpuShare(pid: number, ms: number): Promise<number | undefined> {
  const stat = `/proc/${pid}/stat`;
  if (!fs.existsSync(stat)) return undefined;
  // utime and stime, in clock ticks (100 a second on Linux), after the process name in parentheses
  const ticks = () => {
    const fields = fs.readFileSync(stat, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const before = ticks();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (ticks() - before) / 100 / ((performance.now() - started) / 1000);
}

/** The server's answer, or what kept it from answering within 5 s. */
async function answer(server: Server, pathname: string): Promise<{ status: number; body: unknown } | string> {
  try {
    const response = await fetch(`${server.url}${pathname}`, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    return `no answer: ${String(error)}`;
  }
}

async function expectIdleAndHonest(server: Server): Promise<void> {
  const share = await cpuShare(server.child.pid!, 4000);
  if (share === undefined) console.warn('CPU use not measured: no /proc here (Linux only)');
  else expect.soft(share, `the server used ${Math.round(share * 100)} % of a core`).toBeLessThan(0.1);
  expect.soft(await answer(server, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  expect
    .soft(await answer(server, '/readyz'))
    .toMatchObject({ status: 503, body: { checks: { database: 'unreachable' } } });
}

async function expectExitOnSigterm(server: Server): Promise<void> {
  const exited = new Promise<boolean>((resolve) => server.child.once('exit', () => resolve(true)));
  server.child.kill('SIGTERM');
  const inTime = await Promise.race([
    exited,
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
  ]);
  expect(inTime, 'the server was still running 5 s after SIGTERM').toBe(true);
}

describe('a web process whose database stops under it', () => {
  it('while no one reads its log, on DATABASE_URL: idles, answers /healthz and /readyz (503) at once, and exits on SIGTERM', async () => {
    // a database of its own, reached through DATABASE_URL as in production
    const dataDir = path.join(ROOT, 'database');
    dataDirs.push(dataDir);
    const database = await ensureEmbeddedServer(dataDir, () => {});
    await createDatabaseIfMissing(database.adminUrl('postgres'), 'sandbox');
    const server = await startServer({ DATABASE_URL: database.adminUrl('sandbox'), DATA_DIR: path.join(ROOT, 'web') });
    await createSessions(server);
    await loseLogAndDatabase(server, dataDir);
    await expectIdleAndHonest(server);
    await expectExitOnSigterm(server);
  });

  it('on its embedded database: the same, logs each failure once, and leaves that database stopped', async () => {
    const dataDir = path.join(ROOT, 'embedded');
    dataDirs.push(dataDir);
    fs.mkdirSync(ROOT, { recursive: true });
    const logFile = path.join(ROOT, 'embedded.log');
    const server = await startServer({ DATA_DIR: dataDir }, logFile);
    await createSessions(server);
    await loseLogAndDatabase(server, dataDir);
    await expectIdleAndHonest(server);
    expect.soft(await runningEmbeddedServer(dataDir), 'the server started its stopped database again').toBe(false);
    await expectExitOnSigterm(server);
    // seven seconds and more without a database: each of the worker's five jobs of every tick said so once or
    // twice (the database shutting down, then gone), the rate limits and the listener once, where the worker
    // used to log five failures a second
    const lines = fs.readFileSync(logFile, 'utf8').split('\n');
    const count = (message: string) => lines.filter((line) => line.includes(`"message":"${message}"`)).length;
    expect.soft(count('job failed')).toBeLessThanOrEqual(10);
    expect
      .soft(count('rate limits cannot settle; each process keeps to its share of each limit'))
      .toBeLessThanOrEqual(1);
    expect.soft(count('change notices lost; caches are bypassed until they are back')).toBeLessThanOrEqual(1);
  });
});
