import { inject } from 'vitest';
import { ServerSentEventsReader, type ServerSentMessage } from '@/lib/events/server-sent-events';

// GET /v1/events/stream as a client reads it: the messages and comments as they arrive, until closed.

export type StreamClient = {
  status: number;
  headers: Headers;
  /** the JSON error body when the answer is not a stream */
  error?: { error: { code: string; param?: string; message: string } };
  messages: ServerSentMessage[];
  comments: string[];
  /** resolves once `count` messages arrived, or rejects after timeoutMs */
  waitForMessages: (count: number, timeoutMs?: number) => Promise<ServerSentMessage[]>;
  waitForComments: (count: number, timeoutMs?: number) => Promise<string[]>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  close: () => void;
};

export async function openStream(
  key: string | undefined,
  options: { query?: string; lastEventId?: string; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<StreamClient> {
  const abort = new AbortController();
  // the API tests' shared server unless told another (a scale test's web process)
  const baseUrl = options.baseUrl ?? inject('serverUrl');
  const response = await fetch(`${baseUrl}/v1/events/stream${options.query ?? ''}`, {
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(options.lastEventId ? { 'Last-Event-ID': options.lastEventId } : {}),
      ...options.headers,
    },
    signal: abort.signal,
  });
  const client: StreamClient = {
    status: response.status,
    headers: response.headers,
    messages: [],
    comments: [],
    waitForMessages: (count, timeoutMs) =>
      waitUntil(
        () => client.messages.length >= count,
        timeoutMs,
        () => `${count} messages, got ${client.messages.length}`,
      ).then(() => client.messages),
    waitForComments: (count, timeoutMs) =>
      waitUntil(
        () => client.comments.length >= count,
        timeoutMs,
        () => `${count} comments, got ${client.comments.length}`,
      ).then(() => client.comments),
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    client.error = await response.json();
    return client;
  }
  const reader = new ServerSentEventsReader();
  const decoder = new TextDecoder();
  client.ended = (async () => {
    try {
      const body = response.body!.getReader();
      for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) {
        for (const item of reader.push(decoder.decode(chunk.value, { stream: true }))) {
          if (item.kind === 'message') client.messages.push(item.message);
          else client.comments.push(item.text);
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return client;
}

async function waitUntil(done: () => boolean, timeoutMs = 15_000, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`expected ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
