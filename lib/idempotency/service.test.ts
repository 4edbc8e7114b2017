import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprint } from './service';

describe('fingerprint', () => {
  it('ignores key order and spacing, at every depth', () => {
    expect(fingerprint({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      fingerprint({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
    expect(canonicalJson({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
  });

  it('differs when a value or the array order differs', () => {
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(fingerprint({ a: [1, 2] })).not.toBe(fingerprint({ a: [2, 1] }));
    expect(fingerprint({})).not.toBe(fingerprint({ a: null }));
  });
});
