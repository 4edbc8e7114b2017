import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
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

// IANA's IPv4 and IPv6 special-purpose address registries, as ipaddr.js's range() names their blocks. Every
// block that is not globally reachable is refused; the few that are (AS112, AMT, ORCHIDv2, drone remote ID)
// may receive webhooks like any public address. A block whose reachability is "N/A" carries an IPv4 address
// and is judged by it (below). PCP, TURN and DNS-SD's anycast addresses in 2001:1::/48 are globally
// reachable but fall in ipaddr.js's "reserved" 2001::/23: refused, since no webhook receiver lives there.
const PUBLIC_IPV4_RANGES = new Set(['unicast', 'as112', 'amt']);
const PUBLIC_IPV6_RANGES = new Set(['unicast', 'as112v6', 'amt', 'orchid2', 'droneRemoteIdProtocolEntityTags']);

// Registry blocks ipaddr.js 2.5 does not name: the dummy IPv6 prefix (RFC 9780), not globally reachable.
const MISSING_IPV6_BLOCKS: [ipaddr.IPv6, number][] = [ipaddr.IPv6.parseCIDR('100:0:0:1::/64')];

function isNonPublicIpv4(address: ipaddr.IPv4): boolean {
  return !PUBLIC_IPV4_RANGES.has(address.range());
}

function ipv4At(parts: number[], at: number, mask = 0): ipaddr.IPv4 {
  const high = parts[at] ^ mask;
  const low = parts[at + 1] ^ mask;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function isNonPublicIpv6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  if (MISSING_IPV6_BLOCKS.some((block) => address.match(block))) return true;
  switch (address.range()) {
    // forms that carry an IPv4 address are judged by it, since a translator, a relay or the host's own stack
    // delivers them to that IPv4 address: mapped ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d (RFC 6145), the
    // well-known NAT64 prefix 64:ff9b::/96 (globally reachable when its IPv4 is), 6to4 2002:aabb:ccdd::
    case 'ipv4Mapped':
    case 'rfc6145':
      return isNonPublicIpv4(ipv4At(parts, 6));
    case 'rfc6052':
      // the local-use prefix 64:ff9b:1::/48 (RFC 8215) is not globally reachable, whatever it carries
      return parts[2] !== 0 || isNonPublicIpv4(ipv4At(parts, 6));
    case '6to4':
      return isNonPublicIpv4(ipv4At(parts, 1));
    case 'teredo':
      // 2001:0:<server IPv4>:<flags>:<port>:<client IPv4, every bit inverted> (RFC 4380): either may be reached
      return isNonPublicIpv4(ipv4At(parts, 2)) || isNonPublicIpv4(ipv4At(parts, 6, 0xffff));
    case 'unicast':
      // ipaddr.js reads the deprecated IPv4-compatible ::a.b.c.d (RFC 4291) as unicast; some stacks still
      // deliver it to the IPv4 address
      return parts.slice(0, 6).every((part) => part === 0) ? isNonPublicIpv4(ipv4At(parts, 6)) : false;
    default:
      return !PUBLIC_IPV6_RANGES.has(address.range());
  }
}

/** Whether a webhook may not be sent to this IP address unless private URLs are allowed. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]);
  if (family === 4) return isNonPublicIpv4(ipaddr.IPv4.parse(address));
  if (family === 6) return isNonPublicIpv6(ipaddr.IPv6.parse(address));
  return true; // not an IP address at all: refuse rather than guess
}
