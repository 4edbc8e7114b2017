import { describe, expect, it } from 'vitest';
import { normalizeAddress, parseTrustedProxies, resolveClientAddress, throttledAs } from './client-address';

describe('throttledAs', () => {
  it('counts an IPv6 address as its /64, an IPv4 address as itself', () => {
    expect(throttledAs('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(throttledAs('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(throttledAs('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(throttledAs('::1')).toBe('::/64');
    expect(throttledAs('198.51.100.7')).toBe('198.51.100.7');
  });
});

describe('resolveClientAddress', () => {
  it('believes no X-Forwarded-For without TRUST_PROXY: the socket is the client', () => {
    expect(resolveClientAddress('::ffff:127.0.0.1', '198.51.100.1', null)).toBe('127.0.0.1');
    expect(resolveClientAddress('203.0.113.9', '1.2.3.4, 5.6.7.8', null)).toBe('203.0.113.9');
  });

  it('with trusted proxies, takes the right-most hop that is not one of them', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, loopback');
    // the client forged the first entry; our proxy appended what it saw
    expect(resolveClientAddress('10.0.0.5', 'forged, 198.51.100.7', trusted)).toBe('198.51.100.7');
    // two trusted hops in a row
    expect(resolveClientAddress('127.0.0.1', '198.51.100.7, 10.1.2.3', trusted)).toBe('198.51.100.7');
    // a request straight from an untrusted socket: its header is not believed at all
    expect(resolveClientAddress('203.0.113.9', '198.51.100.7', trusted)).toBe('203.0.113.9');
    // nothing but trusted hops: the farthest one
    expect(resolveClientAddress('127.0.0.1', '10.0.0.1', trusted)).toBe('10.0.0.1');
    expect(resolveClientAddress('::1', undefined, trusted)).toBe('::1');
  });

  it('reads IPv6 ranges and ports', () => {
    const trusted = parseTrustedProxies('2001:db8::/32');
    expect(resolveClientAddress('2001:db8::1', '[2001:db9::7]:443', trusted)).toBe('2001:db9::7');
    expect(normalizeAddress('198.51.100.7:8080')).toBe('198.51.100.7');
    expect(normalizeAddress('::FFFF:10.0.0.1')).toBe('10.0.0.1');
  });

  it('refuses a TRUST_PROXY it cannot read instead of trusting too much', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8, everyone')).toThrow(/everyone/);
    expect(parseTrustedProxies('')).toBeNull();
  });
});
