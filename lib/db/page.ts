// How the dashboard's lists query, so they stay fast at millions of rows (docs/performance.md).
//
// Dashboard lists count their matches only this far past the page's first row: a COUNT(*) of a merchant's
// whole table grows with it. A capped count reads at most this many index entries,
// and the page says "1000+" rather than a number it did not count.
export const COUNT_LIMIT = 1_000;

/** The `take` of a capped count for a page starting at `skip`. */
export function countLimit(skip: number): number {
  return skip + COUNT_LIMIT;
}

/**
 * A search for part of an order reference: case-insensitive `contains`, which the references' trigram
 * indexes serve (pg_trgm). Text under three characters has no trigram, so it matches a whole reference
 * only, through the references' B-tree indexes, rather than reading every reference.
 */
export function referenceMatch(q: string) {
  return q.length < 3 ? { equals: q } : { contains: q, mode: 'insensitive' as const };
}
