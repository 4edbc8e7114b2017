import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import {
  compile,
  conditional,
  cte,
  type MaybeGiven,
  params,
  permitted,
  run,
  runWrite,
  sql,
  undoneBy,
  write,
} from './statement';

// The builder of the one-statement writes: names its values, puts each CTE before those that read it, and
// undoes a statement that refuses after a write of its own, so nothing of it is left.

const p = params<{ id: string; at: Date; count: number }>({ id: 'text', at: 'timestamptz', count: 'int' });

describe('a compiled statement', () => {
  it('has one placeholder per named value, numbered as first written, and lines the values up by name', () => {
    const statement = compile('named', sql`SELECT ${p.at}, ${p.id}, ${p.at} AS "again", ${p.count}`);
    expect(statement.text).toBe('SELECT $1::timestamptz, $2::text, $1::timestamptz AS "again", $3::int');
    expect(statement.names).toEqual(['at', 'id', 'count']);
  });

  it('defines every CTE it reads before the CTEs that read it, once', () => {
    const first = cte('first', sql`SELECT ${p.id} AS "id"`);
    const second = cte('second', sql`SELECT "id" FROM ${first}`);
    const third = cte('third', sql`SELECT "id" FROM ${second} UNION ALL SELECT "id" FROM ${first}`);
    const statement = compile('ordered', sql`SELECT * FROM ${third}`);
    expect(statement.text).toBe(
      [
        'WITH "first" AS (\n  SELECT $1::text AS "id"\n), "second" AS (\n  SELECT "id" FROM "first"\n),',
        ' "third" AS (\n  SELECT "id" FROM "second" UNION ALL SELECT "id" FROM "first"\n)\nSELECT * FROM "third"',
      ].join(''),
    );
  });

  it('refuses two types for one name, two CTEs of one name, and a missing value', async () => {
    const other = params<{ id: number }>({ id: 'int' });
    expect(() => compile('two-types', sql`SELECT ${p.id}, ${other.id}`)).toThrow(/both text and int/);
    const a = cte('same', sql`SELECT 1`);
    const b = cte('same', sql`SELECT 2`);
    expect(() => compile('two-ctes', sql`SELECT * FROM ${a}, ${b}`)).toThrow(/one name/);
    const statement = compile('missing', sql`SELECT ${p.id}`);
    await expect(run(await db(), statement, {} as { id: string })).rejects.toThrow(/needs a value for id/);
  });
});

describe('a conditional read', () => {
  type Filters = MaybeGiven<{ id: string; at: Date; count: number }>;
  const f = params<Filters>({ id: 'text', at: 'timestamptz', count: 'int' });
  const read = conditional<Filters>(
    'filtered',
    { id: sql`"id" = ${f.id}`, at: sql`"at" < ${f.at}` },
    (where) => sql`SELECT 1 WHERE ${where} LIMIT ${f.count}`,
  );

  it('has the conditions whose values are given, and no placeholder of the others', () => {
    const byId = read({ id: 'x', at: undefined, count: 2 });
    expect(byId).toMatchObject({ name: 'filtered-1', text: 'SELECT 1 WHERE "id" = $1::text LIMIT $2::int' });
    expect(read({ id: 'x', at: new Date(), count: 2 }).text).toBe(
      'SELECT 1 WHERE "id" = $1::text AND "at" < $2::timestamptz LIMIT $3::int',
    );
    expect(read({ id: undefined, at: new Date(), count: 2 }).name).toBe('filtered-2');
    expect(read.every.name).toBe('filtered-3');
  });

  it('compiles each set of conditions once', () => {
    expect(read({ id: 'a', at: undefined, count: 1 })).toBe(read({ id: 'b', at: undefined, count: 9 }));
  });
});

describe('a write that refuses', () => {
  const marked = params<{ marker: string; refuse: boolean }>({ marker: 'text', refuse: 'boolean' });
  const noted = cte(
    'noted',
    sql`INSERT INTO "statement_notes" ("marker") SELECT ${marked.marker} FROM ${permitted} RETURNING "marker"`,
  );
  const NOTE = write<{ marker: string; refuse: boolean }, 'refused_after_write' | 'refused_before'>({
    name: 'note-or-refuse',
    writes: [noted],
    refusals: [
      { reason: 'refused_before', when: sql`${marked.refuse} AND ${marked.marker} = 'before'` },
      { reason: 'refused_after_write', when: sql`${marked.refuse}`, afterWrites: true },
    ],
  });

  it('is undone whole when it refuses after a write of its own (undoWhen), and says why', async () => {
    const database = await db();
    await database.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS "statement_notes" ("marker" text NOT NULL)');
    expect(await runWrite(database, NOTE, { marker: 'kept', refuse: false })).toMatchObject({ row: {} });
    expect(await runWrite(database, NOTE, { marker: 'undone', refuse: true })).toEqual({
      refused: 'refused_after_write',
    });
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const error = await client.query(NOTE.plain.text, ['undone', true]).catch((caught) => caught);
    await client.end();
    expect(undoneBy(error)).toBe('refused_after_write');
    const notes = await database.$queryRawUnsafe<{ marker: string }[]>('SELECT "marker" FROM "statement_notes"');
    expect(notes.map((note) => note.marker)).toEqual(['kept']);
  });

  it('answers a refusal found before anything was written without undoing it', async () => {
    const database = await db();
    await database.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS "statement_notes" ("marker" text NOT NULL)');
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      // the undo raises an error; an answered refusal comes back as a row
      const { rows } = await client.query(NOTE.plain.text, ['before', true]);
      expect(rows).toEqual([{ refused: 'refused_before' }]);
    } finally {
      await client.end();
    }
  });

  it('writes a reason only as a code', () => {
    expect(() =>
      write({ name: 'bad-reason', writes: [], refusals: [{ reason: "x'); DROP", when: sql`true` }] }),
    ).toThrow(/a code/);
  });
});
