import { sql as query, type Db } from './index';

// The builder of the one-statement writes: a write that must be atomic and one round trip (a payment, a refund,
// a session with its order and items) is one SQL statement of data-modifying CTEs. Its text is written with sql``
// below, its values named (params), its CTEs values that other fragments refer to (cte), and the whole compiled
// once, when its repository is loaded, to the text and the order of its values: a call only lines its values up.
// Every compiled statement's text is kept beside its repository (lib/db/statement-snapshots.test.ts).

/** A named value of a statement, written as its placeholder cast to its SQL type. */
export type Param<Name extends string = string, Value = unknown> = {
  readonly kind: 'param';
  readonly name: Name;
  readonly type: string;
  /** only the type checker reads it: what a caller must give for this name */
  readonly value?: (given: Value) => void;
};

/** A piece of SQL with its parameters and the CTEs it refers to. */
export type Fragment<Values = never> = {
  readonly kind: 'fragment';
  readonly strings: readonly string[];
  readonly parts: readonly Part[];
  /** only the type checker reads it: the values it needs (a fragment that needs fewer fits where more are given) */
  readonly needs?: (values: Values) => void;
};

/** A CTE: written in a fragment, it is its name; the statement defines it (before every CTE that refers to it). */
export type Cte<Values = never> = { readonly kind: 'cte'; readonly name: string; readonly body: Fragment<Values> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a part of any values; its own are read by ValuesOf
type Part = Param<string, any> | Fragment<never> | Cte<never>;

type ValuesOf<P> =
  P extends Param<infer Name, infer Value>
    ? { [K in Name]: Value }
    : P extends Fragment<infer Values>
      ? Values
      : P extends Cte<infer Values>
        ? Values
        : never;
type Merged<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;

/** SQL with parameters, fragments and CTEs in it; nothing else may be interpolated (raw() says so for text). */
export function sql<const P extends readonly Part[]>(
  strings: TemplateStringsArray,
  ...parts: P
): Fragment<Merged<ValuesOf<P[number]>>> {
  return { kind: 'fragment', strings, parts };
}

/** Text written into the SQL as it is: only for constants of the code, never for a value from a request. */
export function raw(text: string | number): Fragment<unknown> {
  return { kind: 'fragment', strings: [String(text)], parts: [] };
}

/** `items` joined by `separator`. */
export function join<Values>(items: readonly Fragment<Values>[], separator = ', '): Fragment<Values> {
  return { kind: 'fragment', strings: ['', ...items.slice(1).map(() => separator), ''], parts: items };
}

/** A statement's named parameters, each with its SQL type; each is written as `$n::type`. */
export function params<Values extends Record<string, unknown>>(types: {
  [K in keyof Values & string]: string;
}): { [K in keyof Values & string]: Param<K, Values[K]> } {
  return Object.fromEntries(Object.entries(types).map(([name, type]) => [name, { kind: 'param', name, type }])) as {
    [K in keyof Values & string]: Param<K, Values[K]>;
  };
}

export function cte<Values>(name: string, body: Fragment<Values>): Cte<Values> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`a CTE's name is lower case: ${name}`);
  return { kind: 'cte', name, body };
}

/** A compiled statement: its text, and which value each placeholder stands for. */
export type Statement<Values = never> = {
  readonly name: string;
  readonly text: string;
  readonly names: readonly string[];
  readonly needs?: (values: Values) => void;
};

/**
 * Compiles `select` with every CTE it needs: those it or `writes` refer to, and theirs, each defined before the
 * first that refers to it (else in the order met). `replace` puts a CTE of the same name in another's place.
 */
export function compile<Values>(
  name: string,
  select: Fragment<Values>,
  options: { writes?: readonly Cte[]; replace?: ReadonlyMap<Cte, Cte> } = {},
): Statement<Values> {
  const replace = options.replace ?? new Map<Cte, Cte>();
  const ordered: Cte[] = [];
  const visiting = new Set<Cte>();
  const visit = (part: Part): void => {
    if (part.kind === 'param') return;
    if (part.kind === 'fragment') return part.parts.forEach(visit);
    const defined = replace.get(part) ?? part;
    if (ordered.includes(defined)) return;
    if (visiting.has(defined)) throw new Error(`CTE ${defined.name} refers to itself`);
    visiting.add(defined);
    visit(defined.body);
    visiting.delete(defined);
    ordered.push(defined);
  };
  (options.writes ?? []).forEach(visit);
  visit(select);
  if (new Set(ordered.map((one) => one.name)).size !== ordered.length)
    throw new Error(`two CTEs of ${name} have one name`);

  const names: string[] = [];
  const types = new Map<string, string>();
  const render = (part: Part): string => {
    if (part.kind === 'cte') return `"${part.name}"`;
    if (part.kind === 'param') {
      if (types.get(part.name) !== undefined && types.get(part.name) !== part.type)
        throw new Error(`${name}: $${part.name} is both ${types.get(part.name)} and ${part.type}`);
      types.set(part.name, part.type);
      if (!names.includes(part.name)) names.push(part.name);
      return `$${names.indexOf(part.name) + 1}::${part.type}`;
    }
    // a part of several lines goes on at the indentation of the line it is written in
    let text = '';
    part.strings.forEach((piece, i) => {
      text += piece;
      if (i >= part.parts.length) return;
      const line = text.slice(text.lastIndexOf('\n') + 1);
      const indentation = line.slice(0, line.length - line.trimStart().length);
      text += render(part.parts[i]).replace(/\n/g, `\n${indentation}`);
    });
    return dedented(text);
  };
  const definitions = ordered.map((one) => `"${one.name}" AS (\n${indented(render(one.body), '  ')}\n)`);
  const body = dedented(render(select));
  const text = definitions.length ? `WITH ${definitions.join(', ')}\n${body}` : body;
  return { name, text, names };
}

/** The values of a conditional read: each named, undefined where its condition is left out. */
export type MaybeGiven<Values> = { [K in keyof Required<Values>]: Required<Values>[K] | undefined };

/**
 * A read whose conditions each call has or not (a list's filters): a condition is in the statement when every
 * value it names is given (not undefined). One statement per set of conditions, compiled when first asked for
 * and kept, named `name` and the set's number. A condition left out is not in the text (rather than
 * `$n IS NULL OR …`): a statement is prepared once per connection, and a plan made for every set at once could
 * use none of the filters' indexes. `select` puts `where`, the conditions joined by AND.
 */
export function conditional<Values>(
  name: string,
  conditions: Record<string, Fragment<Values>>,
  select: (where: Fragment<Values>) => Fragment<Values>,
): ((values: Values) => Statement<Values>) & { every: Statement<Values> } {
  const all = Object.values(conditions).map((fragment) => ({ fragment, names: paramNames(fragment) }));
  const compiled = new Map<number, Statement<Values>>();
  const statementOf = (set: number) => {
    let statement = compiled.get(set);
    if (!statement) {
      const where = join(
        all.filter((_, i) => set & (1 << i)).map((one) => one.fragment),
        ' AND ',
      );
      statement = compile(`${name}-${set}`, select(where));
      compiled.set(set, statement);
    }
    return statement;
  };
  const statementFor = (values: Values) => {
    const given = values as Record<string, unknown>;
    const has = (one: (typeof all)[number]) => one.names.every((value) => given[value] !== undefined);
    return statementOf(all.reduce((set, one, i) => (has(one) ? set | (1 << i) : set), 0));
  };
  // the statement with every condition, as the repository's snapshot shows it
  return Object.assign(statementFor, { every: statementOf(2 ** all.length - 1) });
}

function paramNames(part: Part): string[] {
  if (part.kind === 'param') return [part.name];
  if (part.kind === 'cte') return paramNames(part.body);
  return part.parts.flatMap(paramNames);
}

/**
 * The statement's values in the order of its placeholders, each found by its name in `values`, else in `more`
 * (two objects rather than one spread of both: this runs on every write).
 */
export function valuesOf<Values>(statement: Statement<Values>, values: Values, more?: object): unknown[] {
  const first = values as Record<string, unknown>;
  const second = (more ?? {}) as Record<string, unknown>;
  return statement.names.map((name) => {
    let value = first[name];
    if (value === undefined && !(name in first)) value = name in second ? second[name] : missing(statement, name);
    return value ?? null;
  });
}

function missing(statement: Statement<never>, name: string): never {
  throw new Error(`${statement.name} needs a value for ${name}`);
}

/** Runs a compiled statement (lib/db's sql(): prepared once per connection under its name). */
export async function run<Values, More extends object = object>(
  database: Db,
  statement: Statement<Values & More>,
  values: Values,
  more?: More,
): Promise<object[]> {
  return query<object>(database, statement.name, statement.text, valuesOf(statement, values as Values & More, more));
}

/**
 * A rule a write checks on the rows as they are: `when` (after every CTE ran) says it failed. A refusal found
 * before anything was written leaves nothing to undo and is answered; one found after another CTE wrote
 * (`afterWrites`) undoes the statement (undo below).
 */
export type Refusal<Reason extends string = string> = {
  reason: Reason;
  when: Fragment<never>;
  afterWrites?: boolean;
};

/**
 * A write of one statement: `writes` its data-modifying CTEs (which select FROM `permitted`), `result` the CTE
 * whose row the caller gets back, `refusals` the rules that stop it, in the order they are checked.
 */
export type Write<Values, Reason extends string = never> = {
  readonly name: string;
  readonly writes: readonly Cte[];
  readonly result?: Cte;
  readonly refusals: readonly Refusal<Reason>[];
  readonly plain: Statement<Values>;
};

/**
 * What each write of a one-statement write selects FROM, so that it happens only when the statement may
 * write: one row here; the Idempotency-Key's claim in its place when the statement claims the key (withKeyClaim
 * in lib/idempotency/repository.ts), so a duplicate request writes nothing.
 */
export const permitted: Cte<unknown> = cte('permitted', sql`SELECT NULL::text AS "id"`);

/**
 * Undoes the whole statement when `condition` holds, the reason as the error's message: one statement cannot
 * roll back what its earlier CTEs wrote otherwise (prisma/migrations/20261124043100_statement_abort). The only
 * writer of abort_statement; undoneBy reads the reason back.
 */
export function undoWhen<Values>(condition: Fragment<Values>, reason: string): Fragment<Values> {
  if (!/^[a-z_]+$/.test(reason)) throw new Error(`a reason is a code: ${reason}`);
  return sql`WHEN ${condition} THEN abort_statement('${raw(reason)}')::text`;
}

/** The reason a statement undid itself with (undoWhen), else undefined. */
export function undoneBy(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'P0001' && typeof message === 'string' ? message : undefined;
}

/** A refusal answered without undoing anything. */
function refuseWhen(refusal: Refusal): Fragment<unknown> {
  return sql`WHEN ${refusal.when} THEN '${raw(refusal.reason)}'`;
}

/**
 * The column "refused" of a write's last SELECT: which refusal stopped it, checked in order. With `claimedUnless`,
 * every refusal undoes the statement, unless that condition says the key was not claimed (nothing written).
 */
export function refusedColumn(refusals: readonly Refusal[], claimedUnless?: Fragment<never>): Fragment<unknown> {
  if (!refusals.length) return sql`NULL::text AS "refused"`;
  const cases = refusals.map((one) =>
    claimedUnless || one.afterWrites ? undoWhen(one.when, one.reason) : refuseWhen(one),
  );
  const unclaimed = claimedUnless ? [sql`WHEN ${claimedUnless} THEN NULL`] : [];
  return sql`CASE\n  ${join([...unclaimed, ...cases], '\n  ')}\nEND AS "refused"`;
}

/** Defines a write (see Write) and compiles its statement without a key's claim. */
export function write<Values, Reason extends string = never>(definition: {
  name: string;
  writes: readonly Cte<Values>[];
  result?: Cte<Values>;
  refusals?: readonly Refusal<Reason>[];
}): Write<Values, Reason> {
  const refusals = definition.refusals ?? [];
  for (const { reason } of refusals) if (!/^[a-z_]+$/.test(reason)) throw new Error(`a reason is a code: ${reason}`);
  const result = definition.result
    ? sql`, r.* FROM (SELECT 1) AS "one" LEFT JOIN ${definition.result} AS r ON true`
    : sql``;
  const select = sql`SELECT ${refusedColumn(refusals)}${result}`;
  return {
    name: definition.name,
    writes: definition.writes,
    result: definition.result,
    refusals,
    plain: compile<Values>(definition.name, select as Fragment<Values>, { writes: definition.writes }),
  };
}

/**
 * What a write's statement answered: its refusal, if any, and its result's row (empty without a result), which
 * an undone statement has not.
 */
export type WriteOutcome<Reason extends string> =
  { refused: Reason; row?: object } | { refused?: undefined; row: object };

/** Runs a write without a key's claim. */
export async function runWrite<Values, Reason extends string>(
  database: Db,
  definition: Write<Values, Reason>,
  values: Values,
): Promise<WriteOutcome<Reason>> {
  try {
    const [row] = await run(database, definition.plain, values);
    const refused = definition.refusals.find((one) => one.reason === (row as { refused: unknown }).refused);
    return refused ? { refused: refused.reason, row } : { row };
  } catch (error) {
    const refused = definition.refusals.find((one) => one.reason === undoneBy(error));
    if (!refused) throw error;
    return { refused: refused.reason };
  }
}

function indented(text: string, by: string): string {
  return dedented(text)
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');
}

/**
 * The text without its common indentation (a first line that follows the backtick has none of its own), and
 * without blank lines at its ends.
 */
function dedented(text: string): string {
  const startsOnItsLine = /^\s*\n/.test(text);
  const lines = text
    .replace(/^\s*\n/, '')
    .trimEnd()
    .split('\n');
  const measured = (startsOnItsLine ? lines : lines.slice(1)).filter((line) => line.trim());
  const depth = measured.length ? Math.min(...measured.map((line) => line.length - line.trimStart().length)) : 0;
  return lines.map((line) => line.slice(Math.min(depth, line.length - line.trimStart().length))).join('\n');
}
