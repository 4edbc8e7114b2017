import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { assertStrictJson, MAX_JSON_DEPTH, nestingCheck } from './strict-json';

function refusal(text: string): ApiError | undefined {
  JSON.parse(text); // only text JSON.parse accepts reaches the check
  try {
    assertStrictJson(text);
    return undefined;
  } catch (error) {
    return error as ApiError;
  }
}

describe('strict JSON', () => {
  it('accepts ordinary bodies, escapes and paired surrogates', () => {
    expect(refusal('{"a":"x\\"y","b":[1,{"a":2}],"c":"\\ud83d\\ude00 😀","d":"\\\\"}')).toBeUndefined();
    expect(refusal('{"items":[{"name":"a"},{"name":"b"}]}')).toBeUndefined();
  });

  it('refuses a repeated key at any depth, but not the same key in sibling objects', () => {
    expect(refusal('{"amount":1,"amount":2}')).toMatchObject({ code: 'invalid_json' });
    expect(refusal('{"items":[{"name":"a","name":"b"}]}')?.message).toContain('items.0');
    expect(refusal('{"x":{"a":1},"y":{"a":1}}')).toBeUndefined();
    expect(refusal('{"a\\u0062":1,"ab":2}')).toMatchObject({ code: 'invalid_json' });
  });

  it('refuses nesting past the limit as the body arrives, in whatever chunks', () => {
    /** The refusal of text fed to one check in chunks of `size` bytes, or undefined. */
    const nesting = (text: string, size: number): ApiError | undefined => {
      const check = nestingCheck();
      const bytes = new TextEncoder().encode(text);
      try {
        for (let at = 0; at < bytes.length; at += size) check(bytes.subarray(at, at + size));
        return undefined;
      } catch (error) {
        return error as ApiError;
      }
    };
    const deep = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    for (const size of [1, 3, 1024]) {
      expect(nesting(deep(MAX_JSON_DEPTH), size)).toBeUndefined();
      expect(nesting(deep(MAX_JSON_DEPTH + 1), size)).toMatchObject({
        code: 'invalid_json',
        message: 'The body is nested more than 32 levels deep',
      });
      // never closed, as a body cut off or still arriving: refused all the same
      expect(nesting('['.repeat(200_000), size)).toMatchObject({ code: 'invalid_json' });
      // siblings are not depth
      expect(nesting(`[${'[],'.repeat(100)}{}]`, size)).toBeUndefined();
      // brackets inside strings, escaped quotes and multi-byte characters around them do not count
      expect(
        nesting(JSON.stringify({ a: `${'['.repeat(100)}\\`, 'b"[[': `é😀${'{'.repeat(40)}` }), size),
      ).toBeUndefined();
      expect(nesting(`${JSON.stringify({ a: '\\' })}${'['.repeat(MAX_JSON_DEPTH + 1)}`, size)).toMatchObject({
        code: 'invalid_json',
      });
    }
  });

  it('refuses NUL and unpaired surrogates, naming where', () => {
    expect(refusal('{"items":[{"name":"a\\u0000b"}]}')).toMatchObject({
      code: 'parameter_invalid',
      param: 'items.0.name',
    });
    expect(refusal('{"reason":"\\ud800"}')).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    expect(refusal('{"reason":"x\\udc00"}')).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    expect(refusal('{"a\\u0000":1}')).toMatchObject({ code: 'parameter_invalid' });
  });
});
