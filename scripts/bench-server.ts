// The server both benchmarks measure: a production build (made if missing) under `next start` on a fresh
// (or, for bench:data --reuse, the kept) embedded database in `dataDir`, worker off, with limits out of reach (the limiter still runs on every
// request; a bench only keeps it from answering 429).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { stopEmbeddedServer } from '../lib/db/embedded';
import { freePort } from '../lib/core/free-port';

export const BENCH_API_KEY = 'sk_sandbox_BenchBenchBenchBenchBenchBench12';
const DIST_DIR = process.env.NEXT_DIST_DIR || '.next';

export type BenchServer = { base: string; process: ChildProcess; stop: () => Promise<void> };

export async function startBenchServer(options: {
  dataDir: string;
  env?: Record<string, string>;
  nodeOptions?: string[];
  /** keep the database already in dataDir (bench:data --reuse) instead of starting from a fresh one */
  reuseData?: boolean;
}): Promise<BenchServer> {
  if (!fs.existsSync(`${DIST_DIR}/BUILD_ID`)) {
    console.error('no production build: running next build');
    execFileSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
  }
  if (!options.reuseData) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/reset-data-dir.ts', options.dataDir], {
      stdio: 'inherit',
    });
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [...(options.nodeOptions ?? []), 'node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: options.dataDir,
        APP_URL: base,
        SANDBOX_API_KEY: BENCH_API_KEY,
        RATE_LIMIT_PER_SECOND: '1000000',
        RATE_LIMIT_BURST: '1000000',
        WORKER: 'off',
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const stop = async () => {
    server.kill('SIGTERM');
    if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    // the embedded PostgreSQL runs as a daemon that outlives the server (lib/db/embedded.ts); a bench leaves none
    await stopEmbeddedServer(options.dataDir);
  };
  try {
    await waitForReady(base);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, process: server, stop };
}

async function waitForReady(base: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not become ready');
}
