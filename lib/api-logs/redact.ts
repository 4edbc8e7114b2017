// What of a /v1 body may be kept in the request log: the merchant reads it in Developers → Logs, so it
// must never hand back a secret that the API itself shows once or never (an API key, a webhook signing
// secret, a password) nor a card's number or security code. Applied to every body before it is written.

import { passesLuhn } from '@/lib/payments/cards';

export const MAX_LOGGED_BODY_BYTES = 16 * 1024;
export const CUT_MARK = '\n… cut at 16 KB';
export const REDACTED = '[redacted]';

// Field names, compared without case, '_' or '-': the value is replaced whatever it holds.
const SECRET_FIELD = /password|passwd|secret|token|apikey|authorization|cardnumber|^(pan|cvc2?|cvv2?|cvn|pin|number)$/;

// Secrets that may turn up inside any text (a description, a metadata value, an error message, a path, an
// Idempotency-Key): a key or secret is redacted however much of it follows its prefix.
const API_KEY = /sk_sandbox_[0-9A-Za-z]+/g;
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/]+={0,2}/g;
// 13 to 19 digits, ASCII or full-width, perhaps grouped by spaces, dots or dashes as people type them (up to
// three between two digits: "4242 - 4242"), not part of a longer run of digits; redacted when Luhn says card
const DIGIT = '[0-9\uFF10-\uFF19]';
const SEPARATOR = '[ .\\-\u00A0\u3000\uFF0D\uFF0E]';
const CARD_NUMBER_LIKE = new RegExp(`(?<!${DIGIT})${DIGIT}(?:${SEPARATOR}{0,3}${DIGIT}){12,18}(?!${DIGIT})`, 'g');

/** A copy of a JSON value with every secret replaced; the shape stays, so the log still reads as the request. */
export function redactSecrets(value: unknown): unknown {
  return redactWithin(value, { left: Infinity });
}

/**
 * The walk behind redactSecrets, counting the characters of text it has copied. Once they pass the budget
 * the JSON is already longer than the log keeps, so the rest of each array (a list's other 90 objects) is
 * left out: the cut text is the same, for a fraction of the work. Characters never outnumber UTF-8 bytes,
 * so nothing left out could have been shown.
 */
function redactWithin(value: unknown, budget: { left: number }): unknown {
  if (typeof value === 'string') {
    const redacted = redactText(value);
    budget.left -= redacted.length;
    return redacted;
  }
  if (value === null || typeof value !== 'object') {
    budget.left -= String(value).length;
    return value;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      if (budget.left < 0) break;
      copy.push(redactWithin(item, budget));
    }
    return copy;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return redactWithin((value as { toJSON: () => unknown }).toJSON(), budget);
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    budget.left -= name.length;
    copy[name] = isSecretField(name) && field !== null && field !== '' ? REDACTED : redactWithin(field, budget);
  }
  return copy;
}

export function redactText(text: string): string {
  return text
    .replace(API_KEY, 'sk_sandbox_[redacted]')
    .replace(WEBHOOK_SECRET, 'whsec_[redacted]')
    .replace(CARD_NUMBER_LIKE, (match) => {
      const digits = asciiDigits(match);
      return passesLuhn(digits) ? `[redacted card ••••${digits.slice(-4)}]` : match;
    });
}

/** The digits of a match, full-width ones read as their ASCII twins. */
function asciiDigits(text: string): string {
  return text.replace(/[\uFF10-\uFF19]/g, (digit) => String(digit.charCodeAt(0) - 0xff10)).replace(/\D/g, '');
}

/**
 * A path or a header's value as the log keeps it. A path arrives percent-encoded, which hides a card number
 * written with spaces (`%20`) or full-width digits, and a header's bytes arrive one character each, so a
 * full-width digit sent in UTF-8 reads as three Latin-1 letters: the decoded text is searched too, and kept
 * (decoded) only when something in it was redacted, so every other path reads exactly as it was requested.
 */
export function redactLoggedText(text: string): string {
  for (const decoded of [percentDecoded(text), utf8Decoded(text)]) {
    if (decoded === null || decoded === text) continue;
    const redacted = redactText(decoded);
    if (redacted !== decoded) return redacted;
  }
  return redactText(text);
}

function percentDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null; // not valid percent-encoding: searched as it is
  }
}

function utf8Decoded(text: string): string | null {
  if (!/^[\x00-\xff]*$/.test(text)) return null;
  const decoded = Buffer.from(text, 'latin1').toString('utf8');
  return decoded.includes('\uFFFD') ? null : decoded;
}

function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name.toLowerCase().replace(/[_-]/g, ''));
}

/** A body as the log keeps it: redacted JSON text, cut at 16 KB (marked so); null when there was none. */
export function loggedBody(value: unknown): string | null {
  if (value === undefined) return null;
  return cutToLimit(JSON.stringify(redactWithin(value, { left: MAX_LOGGED_BODY_BYTES })) ?? 'null');
}

function cutToLimit(text: string): string {
  // a character is at most 3 UTF-8 bytes in a JS string's unit count: most bodies skip the encoding
  if (text.length * 3 <= MAX_LOGGED_BODY_BYTES || Buffer.byteLength(text) <= MAX_LOGGED_BODY_BYTES) return text;
  const kept = Buffer.from(text).subarray(0, MAX_LOGGED_BODY_BYTES).toString('utf8');
  // a character split by the cut decodes as U+FFFD: drop it rather than show a broken one
  return kept.replace(/\uFFFD$/, '') + CUT_MARK;
}
