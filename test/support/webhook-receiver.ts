import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP server on 127.0.0.1 that records every webhook it receives, for tests. `answer` decides the
// response to each request (by its 1-based number), so a test can make an endpoint fail, redirect or hang.

export type ReceivedWebhook = { headers: Record<string, string>; body: string; receivedAt: number };
export type Answer = {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
};

export type TestReceiver = {
  url: string;
  received: ReceivedWebhook[];
  answer: (nth: number, request: ReceivedWebhook) => Answer;
  /** resolves once `count` requests arrived, or rejects after timeoutMs */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedWebhook[]>;
  close: () => Promise<void>;
};

export async function startTestReceiver(
  answer: TestReceiver['answer'] = () => ({ status: 200, body: 'ok' }),
): Promise<TestReceiver> {
  const received: ReceivedWebhook[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const receiver = { received, answer } as TestReceiver;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const webhook = { headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      received.push(webhook);
      const reply = receiver.answer(received.length, webhook);
      if (reply.hang) return;
      setTimeout(() => {
        response.writeHead(reply.status, reply.headers ?? { 'content-type': 'text/plain' });
        response.end(reply.body ?? '');
      }, reply.delayMs ?? 0);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  receiver.url = `http://127.0.0.1:${port}/webhooks`;
  receiver.waitFor = async (count, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, received ${received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return received;
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}
