// npm run bench: how fast the API is against its own framework floor. Builds if needed, starts
// `next start` on a fresh embedded database, measures the paced scenario (scripts/bench-paced.ts), then
// each loaded scenario with autocannon for 10 s at 10 and at 50 connections. Prints tables and writes
// bench/results.json. Not part of npm test.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { MAX_AMOUNT } from '../lib/core/money';
import { createPacedKeys, measurePaced, PACED_SECONDS, printPaced, type PacedResult } from './bench-paced';
import { BENCH_API_KEY, startBenchServer } from './bench-server';

// BENCH_DATA_DIR: another folder, to run two builds' benches side by side (NEXT_DIST_DIR names the build)
const DATA_DIR = process.env.BENCH_DATA_DIR ?? 'data/bench';
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = process.env.BENCH_CONNECTIONS ? process.env.BENCH_CONNECTIONS.split(',').map(Number) : [10, 50];
// BENCH_ONLY=text keeps only the scenarios whose name contains it (to profile one of them); =paced, only that one
const ONLY = process.env.BENCH_ONLY;

type Scenario = {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: () => string;
  headers?: () => Record<string, string>;
  /** a path of its own per request, where each request needs a new resource */
  pathOf?: () => string;
  /**
   * Makes `count` more of the resources its requests use up, one each (a capture's authorization). Such a
   * scenario runs a set number of requests instead of for a time, each with one made for it, so none is refused.
   */
  supply?: (count: number) => Promise<void>;
};
type Result = {
  scenario: string;
  connections: number;
  requestsPerSecond: number;
  /** requests answered over the run */
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** database round trips of one request of the scenario (Db-Round-Trips), the request log aside */
  roundTrips?: number;
  /** CPU time of the server process per request, user + system (Linux) */
  serverCpuMsPerRequest?: number;
  /** CPU time of the embedded PostgreSQL per request: its postmaster, backends and helpers (Linux) */
  databaseCpuMsPerRequest?: number;
  /** how busy the machine's cores were over the run, all processes together, load generator included (Linux) */
  machineBusy?: number;
  ratioToFloor?: number;
};

async function main() {
  // BENCH_CPU_PROF=dir writes the server's V8 CPU profile there when it exits (node refuses --cpu-prof in NODE_OPTIONS)
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // each scenario's round trips are read off one request before it is measured
  const bench = await startBenchServer({
    dataDir: DATA_DIR,
    nodeOptions: profile,
    env: { DB_COUNT_ROUND_TRIPS: 'on' },
  });
  const { base } = bench;
  const server = bench.process;
  try {
    const fixtures = await prepareFixtures(base);
    let paced: PacedResult[] = [];
    if (!ONLY || ONLY === 'paced') {
      paced = await measurePaced(base, await createPacedKeys(DATA_DIR), pacedRequests(fixtures));
      printPaced(paced);
    }
    const scenarios = buildScenarios(base, fixtures).filter(
      (s) => ONLY !== 'paced' && (!ONLY || s.name.includes(ONLY)),
    );
    const results: Result[] = [];
    for (const connections of CONNECTIONS) {
      for (const scenario of scenarios) {
        // a scenario that uses a resource up per request runs as many requests as a write served in the same time
        const warmUp = sizedRun(scenario, WARM_UP_SECONDS, results, connections);
        const timed = sizedRun(scenario, DURATION_SECONDS, results, connections);
        // one more for the request that reads the scenario's round trips
        await scenario.supply?.(warmUp.amount + 1 + timed.amount);
        // a short warm-up, so the first compile of a route does not count
        await measure(base, scenario, connections, warmUp);
        const roundTrips = await roundTripsOf(base, scenario);
        const cpuBefore = processCpuMs(server.pid);
        const databaseCpuBefore = postgresCpuMs(DATA_DIR);
        const machineBefore = machineTicks();
        const result = { ...(await measure(base, scenario, connections, timed)), roundTrips };
        const cpuAfter = processCpuMs(server.pid);
        const databaseCpuAfter = postgresCpuMs(DATA_DIR);
        const machineAfter = machineTicks();
        const perRequest = (ms: number) => Number((ms / result.requests).toFixed(2));
        if (cpuBefore !== null && cpuAfter !== null) result.serverCpuMsPerRequest = perRequest(cpuAfter - cpuBefore);
        if (databaseCpuBefore !== null && databaseCpuAfter !== null)
          result.databaseCpuMsPerRequest = perRequest(databaseCpuAfter - databaseCpuBefore);
        if (machineBefore && machineAfter) {
          const total = machineAfter.total - machineBefore.total;
          result.machineBusy = Number(((total - (machineAfter.idle - machineBefore.idle)) / total).toFixed(2));
        }
        results.push(result);
      }
    }
    for (const result of results) {
      const floor = results.find((r) => r.scenario === 'floor: GET /healthz' && r.connections === result.connections);
      if (floor) result.ratioToFloor = Number((result.requestsPerSecond / floor.requestsPerSecond).toFixed(3));
    }
    if (results.length > 0) printTable(results);
    fs.mkdirSync('bench', { recursive: true });
    const measuredAt = new Date().toISOString();
    fs.writeFileSync(
      'bench/results.json',
      `${JSON.stringify({ measuredAt, durationSeconds: DURATION_SECONDS, results, pacedSeconds: PACED_SECONDS, paced }, null, 2)}\n`,
    );
    console.log('\nwritten to bench/results.json');
  } finally {
    await bench.stop();
  }
}

type Fixtures = { sessionId: string; replayBody: string; paymentIds: string[] };

// Refunds spread over this many payments (refunds of one payment queue on its row lock: measured apart)
const REFUNDED_PAYMENTS = 200;
const WARM_UP_SECONDS = 2;
// what a scenario that uses a resource up per request runs, when no write was measured before it at its connections
const FALLBACK_REQUESTS_PER_SECOND = 500;
const AUTHORIZING_CONNECTIONS = 16;

async function prepareFixtures(base: string): Promise<Fixtures> {
  const session = await post(base, '/v1/checkout-sessions', sessionBody());
  const replayBody = JSON.stringify(sessionBody());
  await post(base, '/v1/checkout-sessions', JSON.parse(replayBody), 'bench-replay');
  // large payments, so a bench's worth of 1-cent refunds never runs out of room
  const paymentIds: string[] = [];
  for (let i = 0; i < REFUNDED_PAYMENTS; i++) {
    const large = await post(base, '/v1/checkout-sessions', sessionBody(MAX_AMOUNT));
    const payment = await post(base, `/v1/test-helpers/checkout-sessions/${large.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    paymentIds.push(payment.id);
  }
  return { sessionId: session.id, replayBody, paymentIds };
}

/** `count` cards authorized on manual-capture sessions, as a customer's checkout leaves them, a few at a time. */
async function authorize(base: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const authorizeOne = async () => {
    const session = await post(base, '/v1/checkout-sessions', { ...sessionBody(), capture_method: 'manual' });
    const payment = await post(base, `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    ids.push(payment.id);
  };
  const startedAt = Date.now();
  let started = 0;
  await Promise.all(
    Array.from({ length: AUTHORIZING_CONNECTIONS }, async () => {
      while (started++ < count) await authorizeOne();
    }),
  );
  console.log(`${ids.length} authorizations to capture, made in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  return ids;
}

type Run = { duration: number; amount: number };

/**
 * How long a scenario runs: for `seconds`, or, for one that uses a resource up per request, for as many requests as
 * the slowest write measured before it at the same connections served in that time (captures come last).
 */
function sizedRun(scenario: Scenario, seconds: number, results: Result[], connections: number): Run {
  if (!scenario.supply) return { duration: seconds, amount: 0 };
  const writes = results.filter((r) => r.connections === connections && r.scenario.startsWith('POST'));
  const perSecond = writes.length ? Math.min(...writes.map((r) => r.requestsPerSecond)) : FALLBACK_REQUESTS_PER_SECOND;
  return { duration: seconds, amount: Math.ceil(perSecond * seconds) };
}

function buildScenarios(base: string, fixtures: Fixtures): Scenario[] {
  let refund = 0;
  // each authorization is captured once: the next one each request, made before each run
  const authorizations: string[] = [];
  return [
    { name: 'floor: GET /healthz', path: '/healthz' },
    { name: 'GET /v1/checkout-sessions/{id}', path: `/v1/checkout-sessions/${fixtures.sessionId}` },
    {
      name: 'POST /v1/checkout-sessions',
      path: '/v1/checkout-sessions',
      method: 'POST',
      body: () => JSON.stringify(sessionBody()),
      headers: () => ({ 'Idempotency-Key': randomUUID() }),
    },
    {
      name: 'POST /v1/checkout-sessions (replay)',
      path: '/v1/checkout-sessions',
      method: 'POST',
      body: () => fixtures.replayBody,
      headers: () => ({ 'Idempotency-Key': 'bench-replay' }),
    },
    {
      name: `POST /v1/refund-requests (${REFUNDED_PAYMENTS} payments)`,
      path: '/v1/refund-requests',
      method: 'POST',
      body: () => JSON.stringify({ payment_id: fixtures.paymentIds[refund++ % fixtures.paymentIds.length], amount: 1 }),
      headers: () => ({ 'Idempotency-Key': randomUUID() }),
    },
    {
      name: 'POST /v1/refund-requests (one payment)',
      path: '/v1/refund-requests',
      method: 'POST',
      body: () => JSON.stringify({ payment_id: fixtures.paymentIds[0], amount: 1 }),
      headers: () => ({ 'Idempotency-Key': randomUUID() }),
    },
    {
      // part of each authorization, the next one each time (the path is set per request)
      name: 'POST /v1/payments/{id}/capture',
      path: '/v1/payments/{id}/capture',
      method: 'POST',
      pathOf: () => `/v1/payments/${authorizations.shift()}/capture`,
      body: () => JSON.stringify({ amount_to_capture: 2_000 }),
      headers: () => ({ 'Idempotency-Key': randomUUID() }),
      supply: async (count) => {
        authorizations.push(...(await authorize(base, count)));
      },
    },
  ];
}

/** A GET, a create and a refund (a cent of one of the large payments, in turn), as a merchant's server sends them. */
function pacedRequests(fixtures: Fixtures) {
  let refund = 0;
  return [
    { name: 'paced: GET /v1/checkout-sessions/{id}', path: `/v1/checkout-sessions/${fixtures.sessionId}` },
    {
      name: 'paced: POST /v1/checkout-sessions',
      path: '/v1/checkout-sessions',
      method: 'POST' as const,
      body: () => JSON.stringify(sessionBody()),
    },
    {
      name: 'paced: POST /v1/refund-requests',
      path: '/v1/refund-requests',
      method: 'POST' as const,
      body: () => JSON.stringify({ payment_id: fixtures.paymentIds[refund++ % fixtures.paymentIds.length], amount: 1 }),
    },
  ];
}

async function roundTripsOf(base: string, scenario: Scenario): Promise<number | undefined> {
  const response = await fetch(`${base}${scenario.pathOf?.() ?? scenario.path}`, {
    method: scenario.method ?? 'GET',
    headers: { Authorization: `Bearer ${BENCH_API_KEY}`, 'Content-Type': 'application/json', ...scenario.headers?.() },
    body: scenario.body?.(),
  });
  await response.arrayBuffer();
  const header = response.headers.get('db-round-trips');
  return header === null ? undefined : Number(header);
}

function measure(base: string, scenario: Scenario, connections: number, run: Run): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${base}${scenario.path}`,
        connections,
        // a set number of requests, when there is one, instead of a time
        ...(run.amount ? { amount: run.amount } : { duration: run.duration }),
        headers: { Authorization: `Bearer ${BENCH_API_KEY}`, 'Content-Type': 'application/json' },
        requests: [
          {
            method: scenario.method ?? 'GET',
            path: scenario.path,
            setupRequest: (request) => ({
              ...request,
              ...(scenario.pathOf ? { path: scenario.pathOf() } : {}),
              ...(scenario.body ? { body: scenario.body() } : {}),
              headers: { ...request.headers, ...(scenario.headers?.() ?? {}) },
            }),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          scenario: scenario.name,
          connections,
          requestsPerSecond: Math.round(result.requests.total / result.duration),
          requests: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
  });
}

/** user + system CPU time of a process so far, from /proc (null elsewhere) */
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** /proc/<pid>/stat after the command's name: fields[1] is the parent, [11]–[14] user, system, and children's. */
function statFields(pid: number | string): string[] {
  return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
}

function processCpuMs(pid: number | undefined): number | null {
  try {
    const fields = statFields(pid ?? '');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU time of the embedded PostgreSQL in `dataDir`: the postmaster, each process it started, and those of them
 * that have ended (its children's time), on Linux.
 */
function postgresCpuMs(dataDir: string): number | null {
  try {
    const postmaster = fs
      .readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
      .split('\n')[0]
      .trim();
    const own = statFields(postmaster);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
      try {
        const fields = statFields(pid);
        if (fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process ended while the list was read
      }
    }
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The machine's CPU ticks since boot, all cores: in all, and idle (waiting for the disk included). */
function machineTicks(): { total: number; idle: number } | null {
  try {
    const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
    return { total: ticks.reduce((sum, n) => sum + n, 0), idle: ticks[3] + ticks[4] };
  } catch {
    return null;
  }
}

function printTable(results: Result[]) {
  const rows = results.map((r) => [
    r.scenario,
    String(r.connections),
    String(r.requestsPerSecond),
    r.ratioToFloor === undefined ? '–' : `${Math.round(r.ratioToFloor * 100)} %`,
    `${r.p50} ms`,
    `${r.p99} ms`,
    String(r.non2xx + r.errors),
    r.roundTrips === undefined ? '–' : String(r.roundTrips),
    r.serverCpuMsPerRequest === undefined ? '–' : `${r.serverCpuMsPerRequest} ms`,
    r.databaseCpuMsPerRequest === undefined ? '–' : `${r.databaseCpuMsPerRequest} ms`,
    r.machineBusy === undefined ? '–' : `${Math.round(r.machineBusy * 100)} %`,
  ]);
  const header = [
    'scenario',
    'conns',
    'req/s',
    'of floor',
    'p50',
    'p99',
    'non-2xx',
    'round trips',
    'server CPU/req',
    'database CPU/req',
    'cores busy',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}

function sessionBody(amount = 3750) {
  return {
    order_reference: `bench-${randomUUID()}`,
    currency: 'USD',
    items: [{ name: 'Benchmark item', quantity: 1, unit_amount: amount }],
    amount,
    return_url: 'https://shop.example.com/thanks',
  };
}

async function post(base: string, path: string, body: unknown, idempotencyKey: string = randomUUID()) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${BENCH_API_KEY}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': idempotencyKey,
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

await main();
