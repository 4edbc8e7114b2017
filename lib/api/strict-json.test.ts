import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { assertStrictJson, MAX_JSON_DEPTH } from './strict-json';

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

  it('refuses nesting past the limit', () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(refusal(`{"a":${deep}}`)).toMatchObject({ code: 'invalid_json' });
    const fine = '['.repeat(MAX_JSON_DEPTH - 1) + ']'.repeat(MAX_JSON_DEPTH - 1);
    expect(refusal(`{"a":${fine}}`)).toBeUndefined();
  });

  it('refuses NUL and unpaired surrogates, naming where', () => {
    expect(refusal('{"items":[{"name":"a\\u0000b"}]}')).toMatchObject({ code: 'parameter_invalid', param: 'items.0.name' });
    expect(refusal('{"reason":"\\ud800"}')).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    expect(refusal('{"reason":"x\\udc00"}')).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    expect(refusal('{"a\\u0000":1}')).toMatchObject({ code: 'parameter_invalid' });
  });
});
