import { errors } from '@/lib/core/errors';

// What JSON.parse lets through but a payments API should not: nesting deep enough to exhaust whatever
// walks the parsed value recursively, duplicate keys (which one did the client mean?), and strings
// PostgreSQL cannot store or that are not text (NUL, unpaired UTF-16 surrogates). Nesting is followed
// while the body streams in, before anything parses it; the rest runs on text JSON.parse has accepted.

export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * A check to feed a JSON body to, chunk by chunk as it arrives: it throws at the first bracket past
 * MAX_JSON_DEPTH, so a body nested 200,000 deep is refused after its first few dozen bytes. It reads
 * UTF-8 bytes, where brackets, quotes and backslashes are never part of a longer character, and brackets
 * inside strings do not count. Text that is not JSON at all is left for JSON.parse to refuse.
 */
export function nestingCheck(): (chunk: Uint8Array) => void {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (chunk) => {
    for (const byte of chunk) {
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) {
        inString = true;
      } else if (OPENERS.has(byte)) {
        if (++depth > MAX_JSON_DEPTH)
          throw errors.invalidJson(`The body is nested more than ${MAX_JSON_DEPTH} levels deep`);
      } else if (CLOSERS.has(byte) && depth > 0) {
        depth--;
      }
    }
  };
}

type Frame = { kind: 'object'; keys: Set<string>; key?: string; expectKey: boolean } | { kind: 'array'; index: number };

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function assertStrictJson(text: string): void {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '{' || char === '[') {
      stack.push(char === '{' ? { kind: 'object', keys: new Set(), expectKey: true } : { kind: 'array', index: 0 });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',') {
      const top = stack.at(-1);
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index += 1;
    } else if (char === '"') {
      const end = endOfString(text, i);
      const value = JSON.parse(text.slice(i, end + 1)) as string;
      i = end;
      const top = stack.at(-1);
      if (top?.kind === 'object' && top.expectKey) {
        if (top.keys.has(value))
          throw errors.invalidJson(`The body repeats the key ${JSON.stringify(value)}${where(stack.slice(0, -1))}`);
        top.keys.add(value);
        top.key = value;
        top.expectKey = false;
      }
      assertStorableText(value, pathOf(stack) || undefined);
    }
  }
}

/** A string PostgreSQL can store and that is text: no NUL, no unpaired surrogate. */
export function assertStorableText(value: string, param: string | undefined): void {
  if (value.includes('\u0000') || UNPAIRED_SURROGATE.test(value)) {
    throw errors.parameterInvalid(
      'Strings may not contain NUL characters or unpaired surrogates',
      param,
      'This has a character that cannot be kept. Remove it and try again.',
    );
  }
}

/** Index of the closing quote of the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

function pathOf(stack: Frame[]): string {
  return stack
    .map((frame) => (frame.kind === 'object' ? (frame.key ?? '') : String(frame.index)))
    .filter(Boolean)
    .join('.');
}

function where(stack: Frame[]): string {
  const path = pathOf(stack);
  return path ? ` in ${path}` : '';
}
