import { errors } from './errors';

export type ListPage<T> = { object: 'list'; data: T[]; has_more: boolean };

type Cursor = { id: string; createdAt: Date };

/**
 * Newest first, `limit` items after the `starting_after` object. The cursor must be an object of the
 * same merchant, else it is a 404 like any other id of another connection.
 */
export async function paginate<Row extends Cursor, Item>(options: {
  limit: number;
  startingAfter?: string;
  findCursor: (id: string) => Promise<Cursor | null>;
  findPage: (args: { where: object; take: number }) => Promise<Row[]>;
  serialize: (row: Row) => Item;
}): Promise<ListPage<Item>> {
  let where = {};
  if (options.startingAfter) {
    const cursor = await options.findCursor(options.startingAfter);
    if (!cursor) throw errors.resourceMissing(`No such object: '${options.startingAfter}'`, 'starting_after');
    where = {
      OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
    };
  }
  const rows = await options.findPage({ where, take: options.limit + 1 });
  return {
    object: 'list',
    data: rows.slice(0, options.limit).map(options.serialize),
    has_more: rows.length > options.limit,
  };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
