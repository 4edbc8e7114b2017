import { z } from 'zod';

/** A key's name, as the merchant types it: optional, so empty means none. */
export const apiKeyNameInput = z
  .string()
  .trim()
  .max(100, 'Keep the name under 100 characters.')
  // control characters (a NUL above all, which PostgreSQL refuses) have no place in a label
  .regex(/^[^\p{Cc}]*$/u, 'Use letters, digits, spaces and punctuation only.')
  .transform((name) => name || null);
