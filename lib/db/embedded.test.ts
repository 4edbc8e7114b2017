import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { ensureEmbeddedServer, reachableByOthers, resolveClusterDir, stopEmbeddedServer } from './embedded';

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

  it.runIf(process.getuid?.() === 0)('starts and serves a cluster for a DATA_DIR the postgres user cannot reach', async () => {
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
    } finally {
      await stopEmbeddedServer(dataDir);
      fs.rmSync(path.dirname(resolveClusterDir(dataDir)), { recursive: true, force: true });
    }
  }, 60_000);
});
