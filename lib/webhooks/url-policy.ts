import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { webhooksAllowPrivateUrls } from '@/lib/env';

// /docs#webhooks: webhook URLs are http or https, and may not reach private, loopback, link-local or other
// non-public addresses unless private URLs are allowed (webhooksAllowPrivateUrls in lib/env.ts: only for a
// loopback APP_URL, or when WEBHOOKS_ALLOW_PRIVATE_URLS says so). A name is resolved and every address it
// has is checked (one private answer is enough to refuse), at creation and again before each delivery,
// and the delivery connects to the addresses that were checked, so a DNS change in between cannot
// steer it inside the network.

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type UrlCheck =
  | {
      ok: true;
      url: URL;
      /** the checked addresses to connect to; null when private URLs are allowed */ addresses:
        ResolvedAddress[] | null;
    }
  | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 5000;

export async function checkWebhookUrl(
  raw: string,
  options: { allowPrivate?: boolean; resolve?: Resolver } = {},
): Promise<UrlCheck> {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must use http or https' };
  if (options.allowPrivate ?? webhooksAllowPrivateUrls()) return { ok: true, url, addresses: null };

  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  } else {
    try {
      addresses = await (options.resolve ?? resolveHostname)(host);
    } catch {
      return { ok: false, reason: `its host ${host} could not be resolved` };
    }
    if (addresses.length === 0) return { ok: false, reason: `its host ${host} could not be resolved` };
  }
  const refused = addresses.find((entry) => isNonPublicAddress(entry.address));
  if (refused) {
    return {
      ok: false,
      reason: `its host ${host} is a private, loopback or otherwise non-public address (${refused.address}); webhooks go to public addresses only`,
    };
  }
  return { ok: true, url, addresses };
}

async function resolveHostname(hostname: string): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), DNS_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
}

// [first address, prefix length] of every IPv4 range that is not the public internet.
const NON_PUBLIC_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4InRange(value: number, [first, bits]: [string, number]): boolean {
  const size = 2 ** (32 - bits);
  const start = ipv4ToNumber(first);
  return value >= start && value < start + size;
}

function isNonPublicIpv4(address: string): boolean {
  const value = ipv4ToNumber(address);
  return NON_PUBLIC_IPV4.some((range) => ipv4InRange(value, range));
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, embedded dotted quad converted). */
export function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const value = ipv4ToNumber(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  const zeros = tail === undefined ? [] : new Array(8 - first.length - last.length).fill(0);
  return [...first, ...zeros, ...last];
}

function embeddedIpv4(groups: number[], at: number): string {
  return [groups[at] >> 8, groups[at] & 0xff, groups[at + 1] >> 8, groups[at + 1] & 0xff].join('.');
}

function isNonPublicIpv6(address: string): boolean {
  const g = ipv6Groups(address);
  const leadingZeros = (count: number) => g.slice(0, count).every((group) => group === 0);
  if (leadingZeros(8)) return true; // :: unspecified
  if (leadingZeros(7) && g[7] === 1) return true; // ::1 loopback
  // addresses that carry an IPv4 address inside are judged by it, since a translator or the host's own
  // stack delivers them to that IPv4 address: mapped ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d (RFC 2765),
  // compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d (RFC 6052), local-use NAT64 64:ff9b:1::/48 (RFC 8215),
  // 6to4 2002:aabb:ccdd::
  if (leadingZeros(5) && g[5] === 0xffff) return isNonPublicIpv4(embeddedIpv4(g, 6));
  if (leadingZeros(4) && g[4] === 0xffff && g[5] === 0) return isNonPublicIpv4(embeddedIpv4(g, 6));
  if (leadingZeros(6)) return isNonPublicIpv4(embeddedIpv4(g, 6));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0))
    return isNonPublicIpv4(embeddedIpv4(g, 6));
  // the local-use prefix is the operator's to divide: read it as DNS64 writes it with a /96 inside it,
  // the IPv4 address in the last 32 bits, whatever the 48 bits between
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return isNonPublicIpv4(embeddedIpv4(g, 6));
  if (g[0] === 0x2002) return isNonPublicIpv4(embeddedIpv4(g, 1));
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated, still routed inside some networks)
  if ((g[0] & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

/** Whether a webhook may not be sent to this IP address unless private URLs are allowed. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]);
  if (family === 4) return isNonPublicIpv4(address);
  if (family === 6) return isNonPublicIpv6(address);
  return true; // not an IP address at all: refuse rather than guess
}
