import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A real HTTP proxy in front of the test server, for the client's retry tests: `plan` decides, per request
// (1-based), whether to forward it, forward it and then drop the connection before answering (the server did
// the work; the client sees a network error), hang, or answer on its own (a 500, a 429 with Retry-After…).

export type Step =
  'forward' | 'forward-then-drop' | 'hang' | { status: number; headers?: Record<string, string>; body?: unknown };

export type Seen = {
  method: string;
  url: string;
  idempotencyKey?: string;
  /** status of the server's answer, when forwarded */
  upstreamStatus?: number;
  replayed?: boolean;
};

export type TestProxy = { url: string; seen: Seen[]; close: () => Promise<void> };

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startProxy(target: string, plan: (nth: number, seen: Seen) => Step): Promise<TestProxy> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const key = request.headers['idempotency-key'];
      const entry: Seen = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        idempotencyKey: typeof key === 'string' ? key : undefined,
      };
      seen.push(entry);
      const step = plan(seen.length, entry);
      if (step === 'hang') return;
      if (typeof step === 'object') {
        response.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
        response.end(step.body === undefined ? '' : JSON.stringify(step.body));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
      const upstream = await fetch(`${target}${entry.url}`, {
        method: entry.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      entry.upstreamStatus = upstream.status;
      entry.replayed = upstream.headers.get('idempotent-replayed') === 'true';
      if (step === 'forward-then-drop') {
        request.socket.destroy();
        return;
      }
      const answerHeaders: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
      });
      response.writeHead(upstream.status, answerHeaders);
      response.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
