// Reading a text/event-stream (the HTML standard's "event stream interpretation"), for the CLI's `listen`
// (scripts/cli/listen.ts) and the tests of GET /v1/events/stream. No database, no Node-only API.

export type ServerSentMessage = { id?: string; event: string; data: string };
export type ServerSentItem = { kind: 'message'; message: ServerSentMessage } | { kind: 'comment'; text: string };

/** Feed it the text as it arrives; it returns the messages and comments each chunk completes. */
export class ServerSentEventsReader {
  private buffer = '';
  private id?: string;
  private event?: string;
  private data: string[] = [];

  push(chunk: string): ServerSentItem[] {
    this.buffer += chunk;
    const items: ServerSentItem[] = [];
    let end: number;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      // a lone \r at the end of a chunk may be the first half of \r\n: wait for the next chunk
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const item = this.line(line);
      if (item) items.push(item);
    }
    return items;
  }

  private line(line: string): ServerSentItem | undefined {
    if (line === '') {
      const message =
        this.data.length > 0 ? { id: this.id, event: this.event ?? 'message', data: this.data.join('\n') } : undefined;
      this.event = undefined;
      this.data = [];
      return message && { kind: 'message', message };
    }
    if (line.startsWith(':')) return { kind: 'comment', text: line.slice(1).trimStart() };
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }
}
