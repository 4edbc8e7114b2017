import { describe, expect, it } from 'vitest';
import { readableBody, readLogListParams } from './dashboard';

describe('readLogListParams', () => {
  it('reads a status class or code, a method and a path prefix from the address', () => {
    expect(readLogListParams({ status: '4xx', method: 'post', path: 'refund-requests', before: '120' })).toEqual({
      filters: { status: { hundreds: 4 }, method: 'POST', pathPrefix: '/v1/refund-requests' },
      query: { status: '4xx', method: 'POST', path: '/v1/refund-requests' },
      before: 120n,
    });
    expect(readLogListParams({ status: '404', path: '/v1/payments/' }).filters).toEqual({
      status: { code: 404 },
      pathPrefix: '/v1/payments/',
    });
    expect(readLogListParams({ path: 'v1/events' }).filters).toEqual({ pathPrefix: '/v1/events' });
    expect(readLogListParams({ path: 'https://sandbox.example.com/v1/payments?limit=3' }).filters).toEqual({
      pathPrefix: '/v1/payments',
    });
  });

  it('drops what it cannot read rather than refusing the page', () => {
    for (const params of [
      { status: '9xx' },
      { status: '42' },
      { status: '600' },
      { method: 'DELETE' },
      { path: '   ' },
      { path: '?limit=3' },
      { before: '-1' },
      { before: '1'.repeat(19) },
      { status: ['4xx', '5xx'] },
    ]) {
      const read = readLogListParams(params);
      expect(read.before, JSON.stringify(params)).toBeUndefined();
      if (!Array.isArray(params.status)) expect(read.filters, JSON.stringify(params)).toEqual({});
    }
  });
});

describe('readableBody', () => {
  it('indents whole JSON and shows a cut body as it was kept', () => {
    expect(readableBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(readableBody('{"a":"long\n… cut at 16 KB')).toBe('{"a":"long\n… cut at 16 KB');
  });
});
