// A server action's arguments arrive in React's reply encoding: JSON whose strings starting with '$' are
// references React revives before any of our code runs (lib/server-actions/arguments.ts checks what it
// revived). Some references name another part of the request (a Map, a Set, a promise, an outlined value,
// a Blob, a stream, a server or temporary reference): one that was never sent, or holds the wrong thing,
// makes React throw, and the caller gets a 500 with a stack in the log. No page of ours sends any of them:
// our actions take JSON values and a form. So a call is refused before React reads it unless its arguments
// are a JSON list whose '$' strings are only those our pages send.

// $$… an escaped '$'; $K… the form's fields; $u(ndefined); $D a date; $N(aN), $I(nfinity), $-0, $-Infinity
const SENT_BY_OUR_PAGES = /^\$(?:\$|K[0-9a-f]+$|u|D|N|I|-)/;

/** Whether `text` (a text body, or a form's field "0") is arguments our pages could have sent. */
export function isActionArgumentList(text: string | null): boolean {
  if (text === null) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return Array.isArray(parsed) && onlySentReferences(parsed);
}

function onlySentReferences(value: unknown): boolean {
  if (typeof value === 'string') return !value.startsWith('$') || SENT_BY_OUR_PAGES.test(value);
  if (value === null || typeof value !== 'object') return true;
  return Object.values(value).every(onlySentReferences);
}
