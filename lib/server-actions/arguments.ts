import { z } from 'zod';

// A server action is a public POST endpoint: whoever has its id (it is in our pages' JavaScript) can call
// it with any arguments React can encode (strings, numbers, arrays, plain objects, FormData…), whatever
// its TypeScript signature says. So every action checks its arguments at the door, before it reads a
// field or calls a service, and answers wrong ones with its own ordinary refusal rather than a TypeError.

/**
 * `args` parsed by one zod schema per position, or null when they do not fit (a missing, extra or
 * wrongly typed argument). On null the action answers as it does to any refused input, and logs nothing:
 * the arguments are a stranger's, and may hold anything.
 */
export function parseActionArguments<const Schemas extends [z.ZodType, ...z.ZodType[]]>(
  args: readonly unknown[],
  ...schemas: Schemas
): z.output<z.ZodTuple<Schemas, null>> | null {
  const parsed = z.tuple(schemas).safeParse(args);
  return parsed.success ? parsed.data : null;
}
