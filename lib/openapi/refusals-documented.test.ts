import { describe, expect, it } from 'vitest';
import { createCheckoutSessionInput } from '@/lib/checkout-sessions/schemas';
import { payByCardInput, payByInteracInput } from '@/lib/payments/schemas';
import { streamEventsQuery } from '@/lib/events/schemas';
import { createWebhookEndpointInput } from '@/lib/webhooks/schemas';
import { currentOpenApiDocument } from './current';

// What the server refuses, the document says: a client generated from it, or a fuzzer, must not send what
// it lets through only to be refused.

const document = currentOpenApiDocument() as any;
const schemas = document.components.schemas;
const resolve = (schema: any): any => (schema?.$ref ? schemas[schema.$ref.split('/').at(-1)] : schema);
const bodyOf = (path: string, method = 'post') =>
  resolve(document.paths[path][method].requestBody.content['application/json'].schema);

describe('the document states the rules the server keeps', () => {
  it('an endpoint’s events never repeat, and "*" stands alone', () => {
    for (const path of ['/v1/webhook-endpoints', '/v1/webhook-endpoints/{id}']) {
      const events = resolve(bodyOf(path).properties.events);
      expect(events.uniqueItems, path).toBe(true);
    }
    expect(bodyOf('/v1/webhook-endpoints').properties.events.description).toMatch(/each once.*`"\*"` stands alone/);
  });

  it('payment_methods never repeat', () => {
    for (const path of ['/v1/checkout-sessions', '/v1/payment-links'])
      expect(resolve(bodyOf(path).properties.payment_methods).uniqueItems, path).toBe(true);
  });

  it('card_number has the digit pattern the server reads, and refuses what it refuses', () => {
    const body = bodyOf('/v1/test-helpers/checkout-sessions/{id}/pay');
    const card = (body.oneOf ?? body.anyOf ?? [body]).map(resolve).find((one: any) => one.properties?.card_number)
      .properties.card_number;
    const pattern = new RegExp(card.pattern, 'u');
    for (const number of ['4242424242424242', '4242 4242 4242 4242', '4242-4242-4242-4242'])
      expect(pattern.test(number), number).toBe(true);
    for (const number of ['4242x4242424242424', '42424242424', '42424242424242424242', '', 'abc'])
      expect(pattern.test(number), number).toBe(false);
    expect(payByCardInput.safeParse({ payment_method: 'card', card_number: '4242424242424242' }).success).toBe(true);
  });

  it('the stream’s types has the pattern of a comma-separated list of event types, as the server parses it', () => {
    const types = document.paths['/v1/events/stream'].get.parameters.find((one: any) => one.name === 'types');
    const pattern = new RegExp(types.schema.pattern, 'u');
    for (const value of ['payment.succeeded', 'payment.succeeded, refund.completed', ' refund.failed '])
      expect([value, pattern.test(value), streamEventsQuery.safeParse({ types: value }).success]).toEqual([
        value,
        true,
        true,
      ]);
    for (const value of ['payment', 'payment.succeeded,', 'payment.succeeded;refund.failed', '*'])
      expect([value, pattern.test(value), streamEventsQuery.safeParse({ types: value }).success]).toEqual([
        value,
        false,
        false,
      ]);
  });

  it('says once, for every string, that NUL and unpaired surrogates are refused', () => {
    expect(document.info.description).toMatch(/Every string.*NUL.*unpaired UTF-16 surrogate/);
  });

  it('URLs the server takes only as http or https say so with a pattern, not only `format: uri`', () => {
    const webhook = (path: string) => bodyOf(path).properties.url;
    const urls = [
      ...['return_url', 'cancel_url'].map((field) => bodyOf('/v1/checkout-sessions').properties[field]),
      bodyOf('/v1/payment-links').properties.after_payment_url,
      webhook('/v1/webhook-endpoints'),
      webhook('/v1/webhook-endpoints/{id}'),
    ].map((field) => field.anyOf?.find((one: any) => one.type === 'string') ?? field);
    for (const url of urls) {
      expect(url.format).toBe('uri');
      for (const refused of ['ftp://shop.example.com/x', 'https://', 'http://:80/'])
        expect(new RegExp(url.pattern, 'u').test(refused), refused).toBe(false);
      expect(new RegExp(url.pattern, 'u').test('HTTPS://shop.example.com/x')).toBe(true);
    }
    const session = {
      order_reference: 'o-1',
      currency: 'USD',
      items: [{ name: 'Lamp', quantity: 1, unit_amount: 100 }],
      amount: 100,
      return_url: 'ftp://shop.example.com/x',
    };
    expect(createCheckoutSessionInput.safeParse(session).success).toBe(false);
    const endpoint = createWebhookEndpointInput.safeParse({ url: 'ftp://hooks.example.com/', events: ['*'] });
    expect(endpoint.success).toBe(true); // refused later, by lib/webhooks/url-policy.ts
  });

  it('text the server trims before counting it has a pattern that refuses a blank one', () => {
    const payCard = bodyOf('/v1/test-helpers/checkout-sessions/{id}/pay').oneOf.map(resolve);
    const fields = [
      bodyOf('/v1/checkout-sessions').properties.items.items.properties.name,
      bodyOf('/v1/payment-links').properties.name,
      bodyOf('/v1/payment-links/{id}').properties.name,
      payCard.find((one: any) => one.properties.name).properties.name,
      payCard.find((one: any) => one.properties.bank).properties.bank,
    ];
    for (const field of fields) expect(new RegExp(field.pattern, 'u').test(' \u00a0\t')).toBe(false);
    expect(payByInteracInput.safeParse({ payment_method: 'interac', outcome: 'approve', bank: ' ' }).success).toBe(
      false,
    );
  });

  it('the rules across fields, or past the schema, are in the fields’ descriptions', () => {
    const session = bodyOf('/v1/checkout-sessions').properties;
    expect(session.amount.description).toMatch(/a total outside 1–99,999,999 is `parameter_invalid`/);
    const card = bodyOf('/v1/test-helpers/checkout-sessions/{id}/pay').oneOf.map(resolve)[0].properties.card_number;
    expect(card.description).toMatch(/must pass the Luhn check/);
    for (const path of ['/v1/payment-links', '/v1/payment-links/{id}']) {
      const quantity = bodyOf(path).properties.adjustable_quantity;
      expect(quantity.properties.minimum.description).toMatch(/at most maximum/);
      expect(quantity.properties.maximum.description).toMatch(/amount × maximum at most 99,999,999/);
    }
    expect(bodyOf('/v1/webhook-endpoints/{id}').properties.events.description).toMatch(/`"\*"` stands alone/);
  });
});
