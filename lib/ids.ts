import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 from a CSPRNG, by rejection sampling so every character is equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
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
