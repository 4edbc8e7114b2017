import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/merchants/service';
import { APPLICATION_NAME } from './change-notices';
import { db } from './index';
import { NotifiedCache } from './notified-cache';

// The in-memory cache answers only while its change notices are known to arrive: a change made by another
// connection (another process) is forgotten within a second, and a lost listener empties the cache and
// sends every read to the database until it is back.

let other: pg.Client;
beforeAll(async () => {
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});
afterAll(() => other.end());

async function until(condition: () => boolean, withinMs: number): Promise<number> {
  const startedAt = performance.now();
  while (!condition()) {
    if (performance.now() - startedAt > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - startedAt;
}

function cachedNames() {
  const cache = new NotifiedCache<string>();
  let loads = 0;
  const read = (merchantId: string) =>
    cache.read(
      merchantId,
      async () => {
        loads += 1;
        const { rows } = await other.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [merchantId]);
        return rows[0]?.name;
      },
      () => [`merchant:${merchantId}`],
    );
  return { cache, read, loads: () => loads };
}

async function readUntilCached(read: () => Promise<unknown>, cache: NotifiedCache<string>) {
  await until(() => cache.size > 0 || (void read(), false), 5_000);
}

describe('the notified cache', () => {
  it('answers from memory, and forgets a row another connection changed within a second', async () => {
    const { id } = await createMerchant(await db(), { name: 'Before' });
    const { cache, read, loads } = cachedNames();
    await readUntilCached(() => read(id), cache);
    const loaded = loads();
    expect(await read(id)).toBe('Before');
    expect(loads()).toBe(loaded);

    await other.query('UPDATE merchants SET name = $1 WHERE id = $2', ['After', id]);
    await until(() => cache.size === 0, 1_000);
    expect(await read(id)).toBe('After');
  });

  it('empties and is bypassed when its listener is lost, and fills again once it is back', async () => {
    const { id } = await createMerchant(await db(), { name: 'Listened' });
    const { cache, read, loads } = cachedNames();
    await readUntilCached(() => read(id), cache);

    const { rows } = await other.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [APPLICATION_NAME],
    );
    expect(rows).toHaveLength(1);
    await until(() => cache.size === 0, 1_000);

    // a change made while no one listens is seen at once: reads go to the database
    await other.query('UPDATE merchants SET name = $1 WHERE id = $2', ['Unheard', id]);
    const before = loads();
    expect(await read(id)).toBe('Unheard');
    expect(loads()).toBe(before + 1);

    await readUntilCached(() => read(id), cache);
    expect(await read(id)).toBe('Unheard');
  });
});
