// The paced scenario of npm run bench: a merchant's server does not send a thousand requests a second, it
// sends one now and then. Several keys each send one request every 1–2 s (a GET, a create, a refund in
// turn) beside as many loops sending GET /healthz at the same pace, the paced floor; a request here must be
// as fast as one in a burst, nothing waiting on a background cycle.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ensureEmbeddedServer } from '../lib/db/embedded';
import { withClient } from '../lib/db/short-client';

export const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 60);
const PACED_KEYS = 4;

export type PacedRequest = { name: string; path: string; method?: 'POST'; body?: () => string };
export type PacedResult = { scenario: string; requests: number; p50: number; p99: number; non2xx: number };

/** Keys of the demo merchant besides the bench's own, made with the admin CLI as an operator would. */
export async function createPacedKeys(dataDir: string): Promise<string[]> {
  const database = await ensureEmbeddedServer(path.resolve(dataDir), () => {});
  const { rows } = await withClient({ connectionString: database.adminUrl('sandbox') }, (client) =>
    client.query<{ merchant_id: string }>(`SELECT merchant_id FROM users WHERE email = 'demo@example.com'`),
  );
  return Array.from({ length: PACED_KEYS }, (_, i) => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/sandbox.ts',
        'create-key',
        '--merchant',
        rows[0].merchant_id,
        '--name',
        `paced ${i}`,
        '--json',
      ],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
    );
    return (JSON.parse(out) as { key: string }).key;
  });
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 1000));

async function timed(base: string, request: PacedRequest, key?: string): Promise<{ ms: number; ok: boolean }> {
  const startedAt = performance.now();
  const response = await fetch(`${base}${request.path}`, {
    method: request.method ?? 'GET',
    headers: key
      ? {
          Authorization: `Bearer ${key}`,
          ...(request.method === 'POST' && { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() }),
        }
      : {},
    body: request.body?.(),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - startedAt, ok: response.ok };
}

/** Each key's loop sends its requests in turn, one every 1–2 s, beside a loop of the floor per key. */
export async function measurePaced(base: string, keys: string[], requests: PacedRequest[]): Promise<PacedResult[]> {
  const floor: PacedRequest = { name: 'paced floor: GET /healthz', path: '/healthz' };
  const times = new Map<string, Array<{ ms: number; ok: boolean }>>();
  // each route once, so that its first load is not counted
  for (const request of requests) await timed(base, request, keys[0]);
  const stopAt = Date.now() + PACED_SECONDS * 1000;
  const loop = async (request: (turn: number) => PacedRequest, key?: string) => {
    for (let turn = 0; Date.now() < stopAt; turn += 1) {
      await pause();
      const sent = request(turn);
      const list = times.get(sent.name) ?? [];
      list.push(await timed(base, sent, key));
      times.set(sent.name, list);
    }
  };
  await Promise.all([
    ...keys.map((key, i) => loop((turn) => requests[(turn + i) % requests.length], key)),
    ...keys.map(() => loop(() => floor)),
  ]);
  return [floor, ...requests].map(({ name }) => {
    const list = times.get(name) ?? [];
    const sorted = list.map((time) => time.ms).sort((a, b) => a - b);
    const at = (share: number) =>
      Number((sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0).toFixed(1));
    return {
      scenario: name,
      requests: list.length,
      p50: at(0.5),
      p99: at(0.99),
      non2xx: list.filter((time) => !time.ok).length,
    };
  });
}

export function printPaced(results: PacedResult[]) {
  const floor = results[0];
  console.log(`\npaced: ${PACED_KEYS} keys, one request every 1–2 s each, for ${PACED_SECONDS} s`);
  console.log('scenario                                   requests     p50     p99  p50 − floor  p99 − floor  non-2xx');
  for (const result of results) {
    console.log(
      [
        result.scenario.padEnd(40),
        String(result.requests).padStart(10),
        `${result.p50} ms`.padStart(8),
        `${result.p99} ms`.padStart(8),
        `${(result.p50 - floor.p50).toFixed(1)} ms`.padStart(12),
        `${(result.p99 - floor.p99).toFixed(1)} ms`.padStart(12),
        String(result.non2xx).padStart(8),
      ].join(' '),
    );
  }
}
