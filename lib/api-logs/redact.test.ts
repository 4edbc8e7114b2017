import { describe, expect, it } from 'vitest';
import {
  CUT_MARK,
  loggedBody,
  MAX_LOGGED_BODY_BYTES,
  REDACTED,
  redactLoggedText,
  redactSecrets,
  redactText,
} from './redact';

const API_KEY = 'sk_sandbox_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw==';

describe('redactSecrets', () => {
  it('replaces the value of every field named like a secret, at any depth, whatever it holds', () => {
    const body = {
      payment_method: 'card',
      card_number: '4242 4242 4242 4242',
      cvc: '123',
      exp_month: 12,
      nested: [
        { password: 'hunter2 hunter2', 'api-key': 12345, clientSecret: { any: 'thing' }, Authorization: 'Bearer x' },
      ],
      secret: WEBHOOK_SECRET,
      previous_secret: null,
    };
    expect(redactSecrets(body)).toEqual({
      payment_method: 'card',
      card_number: REDACTED,
      cvc: REDACTED,
      exp_month: 12,
      nested: [{ password: REDACTED, 'api-key': REDACTED, clientSecret: REDACTED, Authorization: REDACTED }],
      secret: REDACTED,
      // nothing to hide: an absent secret still says it is absent
      previous_secret: null,
    });
  });

  it('finds API keys, webhook secrets and card numbers inside any text', () => {
    expect(redactText(`key ${API_KEY}, secret ${WEBHOOK_SECRET}.`)).toBe(
      'key sk_sandbox_[redacted], secret whsec_[redacted].',
    );
    expect(redactText('card 4242-4242-4242-4242 or 4000000000000002')).toBe(
      'card [redacted card ••••4242] or [redacted card ••••0002]',
    );
    expect(redactSecrets({ description: `paid with 5555 5555 5555 4444 via ${API_KEY}` })).toEqual({
      description: 'paid with [redacted card ••••4444] via sk_sandbox_[redacted]',
    });
  });

  it('finds card numbers grouped by dots, dashes or spaces, in full-width digits, and right after letters', () => {
    for (const card of [
      '4242.4242.4242.4242',
      '4242 - 4242 - 4242 - 4242',
      '４２４２４２４２４２４２４２４２',
      '４２４２　４２４２　４２４２　４２４２',
      '４２４２－４２４２－４２４２－４２４２',
      '4242\u00a04242\u00a04242\u00a04242',
    ]) {
      expect(redactText(`card ${card}!`), card).toBe('card [redacted card ••••4242]!');
    }
    expect(redactText('key4242424242424242')).toBe('key[redacted card ••••4242]');
  });

  it('finds a key or a secret however much of it follows its prefix, even glued to other text', () => {
    expect(redactText('xsk_sandbox_AbCd')).toBe('xsk_sandbox_[redacted]');
    expect(redactText(`${API_KEY}Z and a${WEBHOOK_SECRET}`)).toBe('sk_sandbox_[redacted] and awhsec_[redacted]');
  });

  it('keeps what only looks like a secret: ids, long numbers that fail the card checksum, amounts, short digit runs', () => {
    const body = {
      id: 'pay_4242424242424242424242ab',
      order_reference: 'order-1234567890123',
      amount: 4242424242424242,
      phone: '555 0100',
      ts: '1732450000',
    };
    expect(redactSecrets(body)).toEqual(body);
  });
});

describe('redactLoggedText', () => {
  it('redacts a path or a header as it was sent, percent-encoded or not', () => {
    expect(redactLoggedText(`/v1/payments/${API_KEY}`)).toBe('/v1/payments/sk_sandbox_[redacted]');
    expect(redactLoggedText('/v1/payments/4242%204242%204242%204242')).toBe('/v1/payments/[redacted card ••••4242]');
    expect(redactLoggedText(`/v1/payments/${encodeURIComponent('４２４２４２４２４２４２４２４２')}`)).toBe(
      '/v1/payments/[redacted card ••••4242]',
    );
    const fullWidthAsHeaderBytes = Buffer.from('４２４２４２４２４２４２４２４２', 'utf8').toString('latin1');
    expect(redactLoggedText(`key-${fullWidthAsHeaderBytes}`)).toBe('key-[redacted card ••••4242]');
    expect(redactLoggedText(`order-4242-4242-4242-4242-${WEBHOOK_SECRET}`)).toBe(
      'order-[redacted card ••••4242]-whsec_[redacted]',
    );
  });

  it('keeps every other path exactly as requested, encoding included', () => {
    for (const path of ['/v1/payments/pay_4242424242424242424242ab', '/v1/payment-links/a%20b', '/v1/%E0%A4%A'])
      expect(redactLoggedText(path)).toBe(path);
  });
});

describe('loggedBody', () => {
  it('is null when there was no body, JSON text otherwise', () => {
    expect(loggedBody(undefined)).toBeNull();
    expect(loggedBody({})).toBe('{}');
    expect(loggedBody({ cvc: '999', amount: 100 })).toBe(`{"cvc":"${REDACTED}","amount":100}`);
  });

  it('cuts a body past 16 KB at that size, marked, without splitting a character', () => {
    const small = { note: 'x'.repeat(MAX_LOGGED_BODY_BYTES - 20) };
    expect(loggedBody(small)).toBe(JSON.stringify(small));

    const large = loggedBody({ note: 'é'.repeat(MAX_LOGGED_BODY_BYTES) })!;
    expect(large.endsWith(CUT_MARK)).toBe(true);
    const kept = large.slice(0, -CUT_MARK.length);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(MAX_LOGGED_BODY_BYTES - 4);
    expect(kept).not.toContain('\uFFFD');
    expect(kept.startsWith('{"note":"éé')).toBe(true);
  });

  it('cuts a long list exactly where the whole list, redacted, would be cut', () => {
    const session = {
      id: 'cs_abcdefghijklmnopqrstuvwx',
      object: 'checkout_session',
      name: 'é T-shirt',
      card_number: '4242424242424242',
      amount: 3750,
      note: null,
    };
    const list = {
      object: 'list',
      data: Array.from({ length: 400 }, (_, index) => ({ ...session, index })),
      has_more: true,
    };
    const whole = JSON.stringify(redactSecrets(list));
    expect(Buffer.byteLength(whole)).toBeGreaterThan(2 * MAX_LOGGED_BODY_BYTES);
    const kept = loggedBody(list)!;
    expect(kept.endsWith(CUT_MARK)).toBe(true);
    expect(whole.startsWith(kept.slice(0, -CUT_MARK.length))).toBe(true);
  });

  it('redacts before it cuts, so a secret straddling the cut never shows its first half', () => {
    const body = { padding: 'x'.repeat(MAX_LOGGED_BODY_BYTES - 30), key: API_KEY, token: 'abc' };
    const text = loggedBody(body)!;
    expect(text).not.toContain('sk_sandbox_AbCd');
    expect(text).not.toContain('abc"');
  });
});
