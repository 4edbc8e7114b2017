import { describe, expect, it } from 'vitest';
import { db, inTransaction } from '@/lib/db';

// inTransaction inside a transaction runs in the caller's: the same client, no SAVEPOINT, and one
// rollback for everything when anything throws.

describe('inTransaction', () => {
  it('runs inside the caller’s transaction instead of nesting one', async () => {
    await inTransaction(await db(), async (tx) => {
      await inTransaction(tx, async (inner) => {
        expect(inner).toBe(tx);
      });
    });
  });

  it('opens its own on the client, and a throw in the inner call rolls back the outer’s writes too', async () => {
    const client = await db();
    // this file's own database (test/setup/fresh-database.ts): a table of its own is nobody else's
    await client.$executeRaw`CREATE TABLE IF NOT EXISTS tx_probe (reference text)`;
    await expect(
      inTransaction(client, async (tx) => {
        await tx.$executeRaw`INSERT INTO tx_probe VALUES ('outer')`;
        await inTransaction(tx, async (inner) => {
          await inner.$executeRaw`INSERT INTO tx_probe VALUES ('inner')`;
          throw new Error('changed my mind');
        });
      }),
    ).rejects.toThrow('changed my mind');
    const rows = await client.$queryRaw<{ reference: string }[]>`SELECT reference FROM tx_probe`;
    expect(rows).toEqual([]);
  });
});
