import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../src/http';
import { EventStream, SandboxAuthenticationError, SandboxConnectionError } from '../src/index';

// The stream maker (`m.stream(path)` in client/src/methods.ts) over real HTTP, against a local server speaking
// Server-Sent Events as GET /v1/events/stream is to (lib/events/stream.ts): pings, messages split across chunks, an end
// that is resumed with Last-Event-ID, a JSON error before the stream starts.

type Connection = { lastEventId?: string; query: string; closed: Promise<void> };
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      return closed;
    }),
  );
});

async function sseServer(handle: (nth: number, response: http.ServerResponse, connection: Connection) => void) {
  const connections: Connection[] = [];
  const server = http.createServer((request, response) => {
    if (request.headers.authorization !== 'Bearer sk_sandbox_stream') {
      response.writeHead(401, { 'content-type': 'application/json', 'request-id': 'req_stream' });
      response.end(
        JSON.stringify({
          error: { type: 'authentication_error', code: 'invalid_api_key', message: 'No', request_id: 'req_stream' },
        }),
      );
      return;
    }
    const header = request.headers['last-event-id'];
    const connection: Connection = {
      lastEventId: typeof header === 'string' ? header : undefined,
      query: new URL(request.url ?? '/', 'http://localhost').search,
      closed: new Promise((resolve) => response.on('close', () => resolve())),
    };
    connections.push(connection);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    handle(connections.length, response, connection);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections };
}

const message = (id: string, type: string) => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type })}\n\n`;

function eventStream(url: string, apiKey = 'sk_sandbox_stream', lastEventId?: string) {
  const transport = new Transport({ apiKey, baseUrl: url, maxNetworkRetries: 1 });
  return new EventStream<{ id: string; type: string }>(
    (resumeAfter, signal) =>
      transport.open('/v1/events/stream', { types: 'payment.succeeded' }, resumeAfter, {}, signal),
    lastEventId,
    1,
  );
}

describe('event streams', () => {
  it('parses messages across chunks, skips pings, and resumes with Last-Event-ID after the stream ends', async () => {
    const { url, connections } = await sseServer((nth, response) => {
      if (nth === 1) {
        response.write(': ping\n\n');
        response.write(message('evt_1', 'payment.succeeded'));
        const second = message('evt_2', 'payment.succeeded');
        response.write(second.slice(0, 20));
        setTimeout(() => response.end(second.slice(20)), 50);
      } else {
        response.write(': ping\n\n' + message('evt_3', 'payment.succeeded'));
      }
    });
    const stream = eventStream(url);
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(stream.lastEventId).toBe('evt_3');
    expect(connections.map((connection) => connection.lastEventId)).toEqual([undefined, 'evt_2']);
    expect(connections[0].query).toBe('?types=payment.succeeded');
    // breaking out of the loop closes the connection
    await connections[1].closed;
  });

  it('starts after the given lastEventId', async () => {
    const { url, connections } = await sseServer((_nth, response) => response.write(message('evt_9', 'refund.failed')));
    for await (const event of eventStream(url, undefined, 'evt_8')) {
      expect(event.id).toBe('evt_9');
      break;
    }
    expect(connections[0].lastEventId).toBe('evt_8');
  });

  it('throws the typed error of an answer before the stream starts', async () => {
    const { url } = await sseServer(() => {});
    const error = await (async () => {
      for await (const _event of eventStream(url, 'sk_sandbox_wrong')) return undefined;
    })().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxAuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', requestId: 'req_stream' });
  });

  it('gives up on a stream that keeps ending before any message', async () => {
    const { url, connections } = await sseServer((_nth, response) => response.end());
    const error = await (async () => {
      for await (const _event of eventStream(url)) return undefined;
    })().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxConnectionError);
    expect(connections).toHaveLength(2);
  });
});
