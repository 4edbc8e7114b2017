import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, ipv6Groups, isNonPublicAddress, type Resolver } from './url-policy';

// /docs#webhooks: private, loopback, link-local and other non-public addresses are refused unless allowed.

const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '192.0.0.8',
    '198.18.0.1',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'fec0::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.1.2.3',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:101::1',
    '2002:7f00:1::',
    // each IPv6 form that carries an IPv4 address is judged by that address
    '::ffff:192.168.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:169.254.169.254',
    '::ffff:0:10.0.0.1', // SIIT, ::ffff:0:0/96
    '64:ff9b:1::127.0.0.1',
    '64:ff9b:1::a9fe:a9fe',
    '64:ff9b:1:ab:cd::10.0.0.1', // local-use NAT64, 64:ff9b:1::/48
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '64:ff9b::8.8.8.8',
    '::ffff:0:8.8.8.8',
    '::ffff:0:808:808',
    '64:ff9b:1::8.8.8.8',
    '64:ff9b:1:ab:cd::808:808',
  ])('allows %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('refuses anything that is not an IP address', () => {
    expect(isNonPublicAddress('localhost')).toBe(true);
  });

  it('expands IPv6 forms to eight groups', () => {
    expect(ipv6Groups('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(ipv6Groups('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]);
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  });
});

describe('checkWebhookUrl', () => {
  const publicDns = resolvesTo('93.184.216.34');

  it('accepts a public https URL and returns the addresses to connect to', async () => {
    const check = await checkWebhookUrl('https://hooks.example.com/stripe?x=1', {
      allowPrivate: false,
      resolve: publicDns,
    });
    expect(check).toMatchObject({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
  });

  it.each([
    'ftp://hooks.example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'hooks.example.com/path',
    'not a url',
    '',
  ])('refuses %j: http and https only', async (url) => {
    expect(await checkWebhookUrl(url, { allowPrivate: false, resolve: publicDns })).toMatchObject({ ok: false });
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://127.1/hook',
    'http://0x7f000001/hook',
    'http://2130706433/',
    'http://[::1]:3000/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.5/',
    'http://0.0.0.0:3000/',
  ])('refuses the literal address in %s', async (url) => {
    const check = await checkWebhookUrl(url, { allowPrivate: false, resolve: publicDns });
    expect(check).toMatchObject({ ok: false });
    if (!check.ok) expect(check.reason).toMatch(/non-public address/);
  });

  it('refuses localhost, which the system resolver maps to loopback', async () => {
    expect(await checkWebhookUrl('http://localhost:3000/hook', { allowPrivate: false })).toMatchObject({ ok: false });
  });

  it('refuses a name that resolves to a private address', async () => {
    expect(
      await checkWebhookUrl('https://internal.example.com/', { allowPrivate: false, resolve: resolvesTo('10.1.2.3') }),
    ).toMatchObject({ ok: false });
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const mixed = resolvesTo('93.184.216.34', 'fd00::1');
    expect(await checkWebhookUrl('https://mixed.example.com/', { allowPrivate: false, resolve: mixed })).toMatchObject({
      ok: false,
    });
  });

  it('refuses a name that does not resolve', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const check = await checkWebhookUrl('https://nowhere.invalid/', { allowPrivate: false, resolve: failing });
    expect(check).toEqual({ ok: false, reason: 'its host nowhere.invalid could not be resolved' });
  });

  it('allows private and loopback URLs when WEBHOOKS_ALLOW_PRIVATE_URLS is on, without pinning addresses', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hook', { allowPrivate: true })).toMatchObject({
      ok: true,
      addresses: null,
    });
    expect(await checkWebhookUrl('ftp://127.0.0.1/', { allowPrivate: true })).toMatchObject({ ok: false });
  });
});
