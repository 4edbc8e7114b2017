/** Joins the truthy class names: `classNames('a', active && 'b')`. */
export function classNames(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
