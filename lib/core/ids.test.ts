import { describe, expect, it } from 'vitest';
import { isId, newId, randomBase62 } from './ids';

describe('random ids', () => {
  it('are base62 of the asked length, and never repeat across refills of the random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newId('payment')); // 5000 × ≥ 24 bytes: many 4 KiB refills
    expect(ids.every((id) => isId('payment', id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomBase62(7)).toMatch(/^[0-9A-Za-z]{7}$/);
  });

  it('use every character about equally often', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 1000 expected per character; ±20 % is more than 6 standard deviations
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(200);
  });
});
