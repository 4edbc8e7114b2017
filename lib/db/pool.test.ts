import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseUrl, POOL_OPTIONS } from './index';

// The pool as lib/db/index.ts makes it, on the test database; its idle timers run on a fake clock.

afterEach(() => {
  vi.useRealTimers();
});

describe('the connection pool', () => {
  it('keeps its minimum of connections open through a quiet spell, closing only those past it', async () => {
    const url = await databaseUrl();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pool = new pg.Pool({ connectionString: url, ...POOL_OPTIONS });
    try {
      await Promise.all(Array.from({ length: 8 }, () => pool.query('SELECT pg_sleep(0.05)')));
      expect(pool.totalCount).toBe(8);
      await vi.advanceTimersByTimeAsync(POOL_OPTIONS.idleTimeoutMillis + 1000);
      expect(pool.totalCount).toBe(POOL_OPTIONS.min);
      expect(POOL_OPTIONS.min).toBeGreaterThanOrEqual(4);
    } finally {
      vi.useRealTimers();
      await pool.end();
    }
  });
});
