import { describe, expect, it } from 'vitest';
import { payByCardInput } from '@/lib/payments/schemas';
import { streamEventsQuery } from '@/lib/events/schemas';
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
});
