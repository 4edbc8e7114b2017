import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isNonPublicAddress, type Resolver } from './url-policy';

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
    '64:ff9b:1:ab:cd::10.0.0.1', // local-use NAT64, 64:ff9b:1::/48, not globally reachable whatever it carries
    '64:ff9b:1::8.8.8.8',
    '64:ff9b:1:ab:cd::808:808',
    // the ranges a probe found accepted
    '192.0.2.2',
    '198.51.100.7',
    '203.0.113.9',
    '192.88.99.1',
    '2001:db8::1',
    '100::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo carrying the client 127.0.0.1
    '2001:2::1',
    '2001:10::1',
    '3fff::1',
    '5f00::1',
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
  ])('allows %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('refuses anything that is not an IP address', () => {
    expect(isNonPublicAddress('localhost')).toBe(true);
  });
});

// Every block of IANA's IPv4 and IPv6 special-purpose address registries (iana-ipv4-special-registry,
// iana-ipv6-special-registry, as of 2025), with its "Globally Reachable" column: false is refused, true is
// allowed, and "carries" (N/A, or an address another stack delivers to an IPv4 address) is judged by the IPv4
// address inside. Multicast and site-local are not in the registries and are refused too.
type Block = { cidr: string; reachable: boolean | 'carries'; note?: string };
const IPV4_REGISTRY: Block[] = [
  { cidr: '0.0.0.0/8', reachable: false },
  { cidr: '0.0.0.0/32', reachable: false },
  { cidr: '10.0.0.0/8', reachable: false },
  { cidr: '100.64.0.0/10', reachable: false },
  { cidr: '127.0.0.0/8', reachable: false },
  { cidr: '169.254.0.0/16', reachable: false },
  { cidr: '172.16.0.0/12', reachable: false },
  { cidr: '192.0.0.0/24', reachable: false },
  { cidr: '192.0.0.0/29', reachable: false },
  { cidr: '192.0.0.8/32', reachable: false },
  // PCP and TURN anycast are globally reachable, but no webhook receiver lives there: refused with their /24
  { cidr: '192.0.0.9/32', reachable: false, note: 'globally reachable anycast, refused' },
  { cidr: '192.0.0.10/32', reachable: false, note: 'globally reachable anycast, refused' },
  { cidr: '192.0.0.170/32', reachable: false },
  { cidr: '192.0.0.171/32', reachable: false },
  { cidr: '192.0.2.0/24', reachable: false },
  { cidr: '192.31.196.0/24', reachable: true },
  { cidr: '192.52.193.0/24', reachable: true },
  { cidr: '192.88.99.0/24', reachable: false, note: 'deprecated 6to4 relay anycast' },
  { cidr: '192.168.0.0/16', reachable: false },
  { cidr: '192.175.48.0/24', reachable: true },
  { cidr: '198.18.0.0/15', reachable: false },
  { cidr: '198.51.100.0/24', reachable: false },
  { cidr: '203.0.113.0/24', reachable: false },
  { cidr: '240.0.0.0/4', reachable: false },
  { cidr: '255.255.255.255/32', reachable: false },
  { cidr: '224.0.0.0/4', reachable: false, note: 'multicast' },
];
const IPV6_REGISTRY: Block[] = [
  { cidr: '::1/128', reachable: false },
  { cidr: '::/128', reachable: false },
  { cidr: '::ffff:0:0/96', reachable: 'carries' },
  { cidr: '64:ff9b::/96', reachable: 'carries' },
  { cidr: '64:ff9b:1::/48', reachable: false },
  { cidr: '100::/64', reachable: false },
  { cidr: '100:0:0:1::/64', reachable: false },
  { cidr: '2001::/23', reachable: false },
  { cidr: '2001::/32', reachable: 'carries', note: 'Teredo' },
  { cidr: '2001:1::1/128', reachable: false, note: 'globally reachable anycast, refused' },
  { cidr: '2001:1::2/128', reachable: false, note: 'globally reachable anycast, refused' },
  { cidr: '2001:1::3/128', reachable: false, note: 'globally reachable anycast, refused' },
  { cidr: '2001:2::/48', reachable: false },
  { cidr: '2001:3::/32', reachable: true },
  { cidr: '2001:4:112::/48', reachable: true },
  { cidr: '2001:10::/28', reachable: false },
  { cidr: '2001:20::/28', reachable: true },
  { cidr: '2001:30::/28', reachable: true },
  { cidr: '2001:db8::/32', reachable: false },
  { cidr: '2002::/16', reachable: 'carries', note: '6to4' },
  { cidr: '2620:4f:8000::/48', reachable: true },
  { cidr: '3fff::/20', reachable: false },
  { cidr: '5f00::/16', reachable: false },
  { cidr: 'fc00::/7', reachable: false },
  { cidr: 'fe80::/10', reachable: false },
  { cidr: 'fec0::/10', reachable: false, note: 'deprecated site-local' },
  { cidr: 'ff00::/8', reachable: false, note: 'multicast' },
];

/** The first, a middle and the last address of a block. */
function addressesOf(cidr: string): string[] {
  const [first, bits] = ipaddr.parseCIDR(cidr);
  const bytes = first.toByteArray();
  const last = bytes.map((byte, index) => {
    const hostBits = Math.min(8, Math.max(0, (index + 1) * 8 - bits));
    return byte | ((1 << hostBits) - 1);
  });
  const middle = bytes.map((byte, index) => (index === bytes.length - 1 ? byte | (last[index] & 0x55) : byte));
  return [bytes, middle, last].map((form) => ipaddr.fromByteArray(form).toString());
}

// an address of each carrying block with the IPv4 address inside it, written as each form writes it
const CARRIERS: Record<string, (ipv4: string) => string> = {
  '::ffff:0:0/96': (ipv4) => `::ffff:${ipv4}`,
  '64:ff9b::/96': (ipv4) => `64:ff9b::${ipv4}`,
  '2002::/16': (ipv4) => `2002:${hex32(ipv4)}::1`,
  // Teredo: a public server, the client's address with every bit inverted
  '2001::/32': (ipv4) => `2001:0:4136:e378:8000:63bf:${hex32(ipv4, 0xffffffff)}`,
};
function hex32(ipv4: string, mask = 0): string {
  const value =
    (ipaddr.IPv4.parse(ipv4)
      .toByteArray()
      .reduce((sum, byte) => sum * 256 + byte, 0) ^
      mask) >>>
    0;
  return `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
}

describe("every block of IANA's special-purpose registries", () => {
  const fixed = [...IPV4_REGISTRY, ...IPV6_REGISTRY].filter((block) => block.reachable !== 'carries');
  it.each(fixed)('$cidr (globally reachable: $reachable)', ({ cidr, reachable }) => {
    for (const address of addressesOf(cidr))
      expect([address, isNonPublicAddress(address)]).toEqual([address, !reachable]);
  });

  const carrying = IPV6_REGISTRY.filter((block) => block.reachable === 'carries');
  it.each(carrying)('$cidr is judged by the IPv4 address it carries', ({ cidr }) => {
    const write = CARRIERS[cidr];
    for (const block of IPV4_REGISTRY) {
      for (const ipv4 of addressesOf(block.cidr)) {
        expect([write(ipv4), isNonPublicAddress(write(ipv4))]).toEqual([write(ipv4), !block.reachable]);
      }
    }
    for (const ipv4 of ['8.8.8.8', '93.184.216.34', '1.1.1.1'])
      expect([write(ipv4), isNonPublicAddress(write(ipv4))]).toEqual([write(ipv4), false]);
  });

  it('refuses Teredo when its server is not public, whatever the client', () => {
    expect(isNonPublicAddress('2001:0:a00:1:8000:63bf:f7f7:f7f7')).toBe(true); // server 10.0.0.1, client 8.8.8.8
    expect(isNonPublicAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toBe(false);
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
