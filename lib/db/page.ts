// Dashboard lists count their matches only this far past the page's first row: a COUNT(*) of a merchant's
// whole table grows with it (README, "Performance"). A capped count reads at most this many index entries,
// and the page says "1000+" rather than a number it did not count.
export const COUNT_LIMIT = 1_000;

/** The `take` of a capped count for a page starting at `skip`. */
export function countLimit(skip: number): number {
  return skip + COUNT_LIMIT;
}
