import fs from 'node:fs';
import { get_dmmf } from '@prisma/prisma-schema-wasm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '@/lib/db';
import { migrate } from './migrate';

// The migrations are hand-written SQL; this holds them to prisma/schema.prisma. Every model and field of
// the Prisma DMMF must have its table and column, of the right type and nullability, and every enum its
// values, in a database migrated from scratch.

type Field = { name: string; dbName: string | null; kind: string; type: string; isList: boolean; isRequired: boolean };
type Model = { name: string; dbName: string | null; fields: Field[] };
type Enum = { name: string; dbName: string | null; values: { name: string }[] };

const dmmf = JSON.parse(
  get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', fs.readFileSync('prisma/schema.prisma', 'utf8')]] })),
) as {
  datamodel: { models: Model[]; enums: Enum[] };
};

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Float: 'float8',
  Boolean: 'bool',
  DateTime: 'timestamptz',
  Json: 'jsonb',
};

type Column = { table_name: string; column_name: string; is_nullable: 'YES' | 'NO'; udt_name: string };

let client: pg.Client;
let columns: Column[];

beforeAll(async () => {
  const url = await databaseUrl();
  await migrate(url);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  ({ rows: columns } = await client.query<Column>(
    `SELECT table_name, column_name, is_nullable, udt_name FROM information_schema.columns WHERE table_schema = 'public'`,
  ));
});

afterAll(async () => {
  await client?.end();
});

describe('the migrated database matches prisma/schema.prisma', () => {
  const scalarFields = dmmf.datamodel.models.flatMap((model) =>
    model.fields
      .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
      .map((field) => ({ model, field, table: model.dbName ?? model.name, column: field.dbName ?? field.name })),
  );

  it.each(scalarFields.map((entry) => [`${entry.table}.${entry.column}`, entry] as const))(
    '%s',
    (_label, { model, field, table, column }) => {
      const found = columns.find((c) => c.table_name === table && c.column_name === column);
      expect(found, `${model.name}.${field.name} has no column ${table}.${column}`).toBeDefined();
      const baseType = field.kind === 'enum' ? enumDbName(field.type) : SCALAR_TYPES[field.type];
      expect(found!.udt_name).toBe(field.isList ? `_${baseType}` : baseType);
      // lists are NOT NULL arrays in Prisma's PostgreSQL mapping
      expect(found!.is_nullable).toBe(field.isRequired || field.isList ? 'NO' : 'YES');
    },
  );

  it('has no table that the schema does not describe', () => {
    const modelTables = new Set(dmmf.datamodel.models.map((model) => model.dbName ?? model.name));
    const tables = new Set(columns.map((c) => c.table_name));
    expect([...tables].filter((table) => !modelTables.has(table) && table !== '_migrations')).toEqual([]);
  });

  it('has no column that the schema does not describe', () => {
    const described = new Set(scalarFields.map((entry) => `${entry.table}.${entry.column}`));
    const extra = columns.filter(
      (c) => c.table_name !== '_migrations' && !described.has(`${c.table_name}.${c.column_name}`),
    );
    expect(extra.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([]);
  });

  it.each(dmmf.datamodel.enums.map((e) => [e.name, e] as const))(
    'enum %s has the same values',
    async (_name, prismaEnum) => {
      const { rows } = await client.query<{ enumlabel: string }>(
        `SELECT e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = $1 ORDER BY e.enumsortorder`,
        [prismaEnum.dbName ?? prismaEnum.name],
      );
      expect(rows.map((row) => row.enumlabel)).toEqual(prismaEnum.values.map((value) => value.name));
    },
  );
});

function enumDbName(name: string): string {
  const found = dmmf.datamodel.enums.find((e) => e.name === name);
  return found?.dbName ?? name;
}
