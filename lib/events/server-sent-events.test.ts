import { describe, expect, it } from 'vitest';
import { ServerSentEventsReader } from './server-sent-events';
import { eventMessage, PING } from './stream';

// The reader the CLI's listen and the tests follow GET /v1/events/stream with, against what the stream writes.

describe('ServerSentEventsReader', () => {
  it('reads back what the stream writes, however the text is cut into chunks', () => {
    const event = { id: 'evt_1', type: 'payment.succeeded', data: { object: { id: 'pay_1' } }, createdAt: new Date(0) };
    const text = `${PING}${eventMessage(event)}${PING}${eventMessage({ ...event, id: 'evt_2' })}`;
    for (const size of [1, 2, 7, text.length]) {
      const reader = new ServerSentEventsReader();
      const items = [];
      for (let at = 0; at < text.length; at += size) items.push(...reader.push(text.slice(at, at + size)));
      expect(items.map((item) => (item.kind === 'comment' ? item.text : item.message.id))).toEqual([
        'ping',
        'evt_1',
        'ping',
        'evt_2',
      ]);
      const message = items.find((item) => item.kind === 'message')!;
      expect(message.kind === 'message' && JSON.parse(message.message.data)).toEqual({
        id: 'evt_1',
        object: 'event',
        type: 'payment.succeeded',
        created_at: '1970-01-01T00:00:00.000Z',
        data: { object: { id: 'pay_1' } },
      });
    }
  });

  it('follows the standard: CRLF and CR line ends, data over several lines, the id kept, no message without data', () => {
    const reader = new ServerSentEventsReader();
    const items = reader.push('id: 7\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\nevent: b\r\r\ndata: three\n');
    expect(items).toEqual([{ kind: 'message', message: { id: '7', event: 'a', data: 'one\ntwo' } }]);
    expect(reader.push('\n')).toEqual([{ kind: 'message', message: { id: '7', event: 'message', data: 'three' } }]);
  });
});
