import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseActionArguments } from './arguments';

// Whatever a caller sends, an action gets its arguments typed as declared, or null.

describe('parseActionArguments', () => {
  const form = new FormData();

  it('gives the arguments back when each fits its schema', () => {
    expect(parseActionArguments([{ status: 'idle' }, form], z.unknown(), z.instanceof(FormData))).toEqual([
      { status: 'idle' },
      form,
    ]);
    expect(parseActionArguments(['cs_123', { method: 'card' }], z.string(), z.unknown())).toEqual([
      'cs_123',
      { method: 'card' },
    ]);
  });

  it.each([
    ['a wrong type', [{}, ['cs_123']]],
    ['a plain object for a FormData', [{}, { get: 'x' }]],
    ['an argument missing', [{}]],
    ['no arguments', []],
    ['an extra argument', [{}, form, 'extra']],
  ])('is null for %s', (_what, args) => {
    expect(parseActionArguments(args, z.unknown(), z.instanceof(FormData))).toBeNull();
  });
});
