import { describe, expect, it } from 'vitest';
import { hostFromInput } from './dashboard-actions';

describe('hostFromInput: the exact host a person meant', () => {
  it.each([
    ['shop.example.com', 'shop.example.com'],
    ['Shop.Example.com', 'shop.example.com'],
    ['localhost:4000', 'localhost:4000'],
    ['https://shop.example.com/cart?x=1', 'shop.example.com'],
    ['http://localhost:4000/orders', 'localhost:4000'],
    ['https://shop.example.com:443/', 'shop.example.com'],
  ])('%s → %s', (input, host) => {
    expect(hostFromInput(input)).toBe(host);
  });

  it.each(['', 'shop example.com', 'localhost:4000/cart', 'https://user:pw@shop.example.com/', 'ftp//x', 'http://'])(
    '%j is refused',
    (input) => {
      expect(hostFromInput(input)).toBeNull();
    },
  );
});
