// Reading a list page's filters from its URL. Anything unrecognised is dropped rather than refused:
// a hand-edited URL shows the unfiltered list, never an error page.

export type SearchParams = Record<string, string | string[] | undefined>;

export const PAGE_SIZE = 25;

export function first(params: SearchParams, name: string): string | undefined {
  const value = params[name];
  // NUL is dropped: PostgreSQL refuses it in a query, and ?q=%00 would show the error page
  const text = (Array.isArray(value) ? value[0] : value)?.replaceAll('\u0000', '');
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

export function oneOf<T extends string>(params: SearchParams, name: string, allowed: readonly T[]): T | undefined {
  const value = first(params, name);
  return value !== undefined && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function pageNumber(params: SearchParams): number {
  const value = Number(first(params, 'page'));
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1;
}

/** A YYYY-MM-DD day, or undefined. */
export function day(params: SearchParams, name: string): string | undefined {
  const value = first(params, name);
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) ? undefined : value;
}

/** Free text for a search box, bounded. */
export function searchText(params: SearchParams, name = 'q'): string | undefined {
  return first(params, name)?.slice(0, 100);
}

/** The same list with some parameters changed (undefined removes one). */
export function hrefWith(
  pathname: string,
  current: Record<string, string | number | undefined>,
  changes: Record<string, string | number | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...current, ...changes })) {
    if (value !== undefined && value !== '' && !(name === 'page' && value === 1)) query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${pathname}?${text}` : pathname;
}
