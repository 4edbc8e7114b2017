import { errors } from './errors';

/** A page of domain rows, newest first, as services return it. */
export type Page<Row> = { rows: Row[]; hasMore: boolean };

/** The list object of /docs#pagination, made at the edge from a service's page. */
export type ListObject<T> = { object: 'list'; data: T[]; has_more: boolean };

export function listObject<Row, Item>(page: Page<Row>, serialize: (row: Row) => Item): ListObject<Item> {
  return { object: 'list', data: page.rows.map(serialize), has_more: page.hasMore };
}

/** Where a page starts: after this object, newest first. */
export type Cursor = { id: string; createdAt: Date };

/**
 * Newest first, `limit` items after the `starting_after` object. The cursor must be an object of the
 * same merchant, else it is a 404 like any other id of another connection.
 */
export async function paginate<Row extends Cursor>(options: {
  limit: number;
  startingAfter?: string;
  findCursor: (id: string) => Promise<Cursor | null>;
  /** `where` is the cursor's condition for Prisma; `after` the cursor itself, for a statement of SQL */
  findPage: (args: { where: object; after?: Cursor; take: number }) => Promise<Row[]>;
}): Promise<Page<Row>> {
  let where = {};
  let after: Cursor | undefined;
  if (options.startingAfter) {
    const cursor = await options.findCursor(options.startingAfter);
    if (!cursor)
      throw errors.resourceMissing(
        `No such object: '${options.startingAfter}'`,
        'starting_after',
        'The page to continue from is gone. Go back to the first page.',
      );
    after = cursor;
    where = {
      OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
    };
  }
  const rows = await options.findPage({ where, after, take: options.limit + 1 });
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
