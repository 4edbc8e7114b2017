import { describe, expect, it } from 'vitest';
import { hostOfUrl, normalizeHost } from './hosts';

describe('approved hosts', () => {
  it('normalizes what a person types', () => {
    expect(normalizeHost('Shop.Example.com')).toBe('shop.example.com');
    expect(normalizeHost(' localhost:3000 ')).toBe('localhost:3000');
    expect(normalizeHost('shop.example.com:443')).toBe('shop.example.com');
  });

  it('refuses what is not a host', () => {
    for (const input of [
      '',
      'https://shop.example.com',
      'shop.example.com/path',
      'user@shop.example.com',
      'a b.com',
      'shop.example.com?x=1',
      '*.example.com',
    ]) {
      expect(normalizeHost(input), input).toBeNull();
    }
  });

  it('reads the host of a URL in the same form', () => {
    expect(hostOfUrl(new URL('https://SHOP.example.com:443/x'))).toBe('shop.example.com');
    expect(hostOfUrl(new URL('http://localhost:4000/done'))).toBe('localhost:4000');
  });
});
