import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn 4 KiB at a time and handed out in order (as Node's randomUUID does): a call to the
// CSPRNG per id cost more CPU than the rest of making it, on every request (request ids).
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function nextRandomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** Random base62 from a CSPRNG, by rejection sampling so every character is equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export const ID_PREFIXES = {
  merchant: 'acct_',
  user: 'usr_',
  apiKey: 'key_',
  checkoutSession: 'cs_',
  payment: 'pay_',
  refundRequest: 'rr_',
  order: 'ord_',
  event: 'evt_',
  paymentLink: 'pl_',
  webhookEndpoint: 'we_',
  webhookDelivery: 'whd_',
  request: 'req_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomBase62(24);
}

const ID_BODY = /^[0-9A-Za-z]{24}$/;

/** Whether a string could be an id of this kind; anything else cannot exist, so it is a 404 without a query. */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = ID_PREFIXES[kind];
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}
