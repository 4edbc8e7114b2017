import { randomBytes, timingSafeEqual } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Who is asking, for the throttles. Next.js keeps a client's own X-Forwarded-For (it adds the socket's
// address only when the header is absent), so that header alone proves nothing: anyone can change it per
// request. Instead each server process stamps every request as it arrives with the address its socket
// saw — or, when TRUST_PROXY names the proxies in front of us, the right-most X-Forwarded-For hop that is
// not one of them. The stamp carries a secret of this process, so a client that sends the header itself
// is not believed.

const STAMP_HEADER = 'x-sandbox-client-address';
const MAX_ADDRESS_LENGTH = 64;

type StampState = { secret: string; trusted: BlockList | null };
const globalForStamp = globalThis as unknown as { sandboxClientAddressStamp?: StampState };

/** Called once per server process, before it serves: stamps every HTTP request with its client address. */
export function stampClientAddresses(trustProxy: string | undefined): void {
  if (globalForStamp.sandboxClientAddressStamp) return;
  const state: StampState = { secret: randomBytes(18).toString('base64url'), trusted: parseTrustedProxies(trustProxy) };
  globalForStamp.sandboxClientAddressStamp = state;
  // published by Node's HTTP server just before it emits 'request', for every request it parses
  diagnosticsChannel.subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    const address = resolveClientAddress(
      request.socket.remoteAddress,
      request.headers['x-forwarded-for'],
      state.trusted,
    );
    request.headers[STAMP_HEADER] = `${state.secret} ${address ?? ''}`;
  });
}

/**
 * Who a request's throttles count it as: its stamped client address, an IPv6 one as its /64 (the least a
 * subscriber is given: one client can take any address inside it), or null when the request was not
 * stamped by this process.
 */
export function clientAddressOf(
  headers: Pick<Headers, 'get'> | Record<string, string | string[] | undefined> | undefined,
): string | null {
  const state = globalForStamp.sandboxClientAddressStamp;
  if (!state || !headers) return null;
  const raw =
    typeof headers.get === 'function'
      ? (headers as Pick<Headers, 'get'>).get(STAMP_HEADER)
      : (headers as Record<string, unknown>)[STAMP_HEADER];
  if (typeof raw !== 'string') return null;
  const [secret, address] = raw.split(' ', 2);
  if (!sameSecret(secret, state.secret) || !address) return null;
  return throttledAs(address);
}

/** An IPv4 address as it is; an IPv6 one as its /64 ("2001:db8:1:2::/64"). */
export function throttledAs(address: string): string {
  if (isIP(address) !== 6) return address;
  const prefix = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The client of a request that reached us from `socketAddress`, carrying `forwardedFor`. With no trusted
 * proxies that is the socket's address. Otherwise walk the chain from our side: each trusted hop vouches
 * for the one before it, and the first hop that is not trusted is the client.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: BlockList | null,
): string | null {
  const socket = socketAddress ? normalizeAddress(socketAddress) : null;
  if (!trusted || !socket) return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const chain = [
    ...header
      .split(',')
      .map((hop) => normalizeAddress(hop.trim()))
      .filter(Boolean),
    socket,
  ];
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    if (!isTrusted(chain[index], trusted)) return chain[index];
  }
  return chain[0];
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** "::ffff:10.0.0.1" is 10.0.0.1; "[::1]:443" and "10.0.0.1:80" lose their ports; anything else is kept, short. */
export function normalizeAddress(raw: string): string {
  let address = raw.trim();
  const bracketed = address.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) address = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  const mapped = address.match(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i);
  if (mapped) address = mapped[1];
  return address.toLowerCase().slice(0, MAX_ADDRESS_LENGTH);
}

/** TRUST_PROXY: addresses and CIDR ranges, separated by commas or spaces; "loopback" for 127.0.0.0/8 and ::1. */
export function parseTrustedProxies(setting: string | undefined): BlockList | null {
  const entries = (setting ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address, prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an address, a CIDR range or "loopback"`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}
