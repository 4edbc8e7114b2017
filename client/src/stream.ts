import { backoffMs, connectionError } from './http.js';
import { SandboxApiError } from './errors.js';

// What a stream method answers: every message of a Server-Sent Events stream (`id:`, `event:`, `data:` with
// the JSON object; `:` comments such as pings skipped), parsed, for `for await`. When the stream ends or
// drops it is opened again with `Last-Event-ID`, the id of the last message, so nothing is skipped or
// repeated; breaking out of the loop closes it. `lastEventId` says where a later stream could resume.

type Message = { id?: string; data: string };

export class EventStream<Item> implements AsyncIterable<Item> {
  lastEventId: string | undefined;

  constructor(
    private readonly open: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>,
    lastEventId: string | undefined,
    /** reopenings in a row that bring no bytes before giving up */
    private readonly retries: number,
  ) {
    this.lastEventId = lastEventId;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    for (let idle = 0; ;) {
      // aborted when the loop ends, so the connection closes at once rather than when the socket is reclaimed
      const connection = new AbortController();
      const response = await this.open(this.lastEventId, connection.signal);
      if (!response.body) throw new SandboxApiError('The stream answered no body', { type: 'api_error' });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let received = false;
      try {
        for await (const message of messages(reader, () => (received = true))) {
          if (message.id !== undefined) this.lastEventId = message.id;
          yield parse<Item>(message.data);
        }
      } catch (error) {
        if (error instanceof SandboxApiError) throw error;
        // dropped mid-stream (a reset, the server going away): reopened below
      } finally {
        connection.abort();
        await reader.cancel().catch(() => undefined);
      }
      idle = received ? 0 : idle + 1;
      if (idle > this.retries) throw connectionError(new Error('the stream kept ending before any message'));
      if (idle > 0) await new Promise((resolve) => setTimeout(resolve, backoffMs(idle - 1)));
    }
  }
}

function parse<Item>(data: string): Item {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new SandboxApiError(
      `A stream message is not JSON: ${data.slice(0, 100)}`,
      { type: 'api_error' },
      { cause: error },
    );
  }
}

/** The messages of an event stream, per the HTML standard's parsing rules (fields, comments, blank line ends one). */
async function* messages(reader: ReadableStreamDefaultReader<string>, onBytes: () => void): AsyncGenerator<Message> {
  let buffer = '';
  let id: string | undefined;
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    buffer += value;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length) yield { id, data: data.join('\n') };
        id = undefined;
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(text);
      else if (field === 'id' && !text.includes('\0')) id = text;
    }
  }
}
