import { ServerSentEventsReader, type ServerSentMessage } from '@/lib/events/server-sent-events';
import { signatureHeaders } from '@/lib/webhooks/signature';
import { causeOf, CliFailure, type ApiTarget } from './api';
import { listenSecret } from './config';

// `listen --forward-to <url>` (README, "Administration"): follows GET /v1/events/stream and POSTs each event
// to a local URL, signed per Standard Webhooks with a secret of its own, kept in the user's config folder
// (config.ts). For a sandbox that cannot reach the developer's machine: the stream goes out from it. A
// dropped stream is opened again with Last-Event-ID, so that no event is skipped or forwarded twice.

const FORWARD_TIMEOUT_MS = 10_000;
const RECONNECT_MS = [250, 500, 1000, 2000, 5000];

export type ListenOptions = {
  target: ApiTarget;
  forwardTo: string;
  types?: string[];
  /** one line of output (the caller prints it as text or JSON) */
  print: (line: ListenLine) => void;
  signal: AbortSignal;
  configDir?: string;
};

export type ListenLine =
  | { kind: 'ready'; secret: string; secret_file: string; forward_to: string }
  | { kind: 'event'; time: string; type: string; id: string; status: number | null; error?: string }
  | { kind: 'notice'; message: string };

/** Runs until the signal aborts; throws CliFailure when the sandbox refuses the stream (key, scope, types). */
export async function listen(options: ListenOptions): Promise<void> {
  const { secret, file } = listenSecret(options.configDir);
  options.print({ kind: 'ready', secret, secret_file: file, forward_to: options.forwardTo });
  let lastEventId: string | undefined;
  let failures = 0;
  while (!options.signal.aborted) {
    try {
      const response = await openStream(options, lastEventId);
      if (response === 'resume-refused') {
        options.print({
          kind: 'notice',
          message: `cannot resume after ${lastEventId} (no longer kept): events since may be missing; listening from now`,
        });
        lastEventId = undefined;
        continue;
      }
      options.print({
        kind: 'notice',
        message: lastEventId ? `reconnected, resuming after ${lastEventId}` : 'connected, listening for new events',
      });
      failures = 0;
      await follow(response, async (message) => {
        await forward(options, secret, message);
        lastEventId = message.id;
      });
      // the server ends a stream after an hour: open it again at once
    } catch (error) {
      if (options.signal.aborted) return;
      if (error instanceof CliFailure) throw error;
      const wait = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)];
      failures += 1;
      options.print({
        kind: 'notice',
        message: `stream lost (${causeOf(error)}); reconnecting in ${wait} ms${lastEventId ? ` after ${lastEventId}` : ''}`,
      });
      await sleep(wait, options.signal);
    }
  }
}

async function openStream(options: ListenOptions, lastEventId: string | undefined) {
  const query = options.types?.length ? `?types=${encodeURIComponent(options.types.join(','))}` : '';
  const response = await fetch(`${options.target.baseUrl}/v1/events/stream${query}`, {
    headers: {
      Authorization: `Bearer ${options.target.apiKey}`,
      Accept: 'text/event-stream',
      ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
    },
    signal: options.signal,
  });
  if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const body = (await response.json().catch(() => undefined)) as
    { error?: { code?: string; message?: string; param?: string } } | undefined;
  const error = body?.error;
  if (response.status === 400 && error?.param === 'Last-Event-ID') return 'resume-refused' as const;
  const refusal =
    `the sandbox refused the stream: ${response.status} ${error?.code ?? ''} ${error?.message ?? ''}`.trim();
  // a busy or restarting server is worth waiting for; a refused key, scope or --events is not
  if (response.status === 429 || response.status >= 500) throw new Error(refusal);
  throw new CliFailure(refusal);
}

/** Calls `each` for every message, one after the other (so events are forwarded in order), until the stream ends. */
async function follow(response: Response, each: (message: ServerSentMessage) => Promise<void>): Promise<void> {
  const reader = new ServerSentEventsReader();
  const decoder = new TextDecoder();
  const body = response.body!.getReader();
  for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) {
    for (const item of reader.push(decoder.decode(chunk.value, { stream: true }))) {
      if (item.kind === 'message' && item.message.id) await each(item.message);
    }
  }
}

/** POSTs the event as a webhook delivery would carry it, signed with listen's secret; prints the answer. */
async function forward(options: ListenOptions, secret: string, message: ServerSentMessage): Promise<void> {
  const id = message.id!;
  const headers = signatureHeaders([secret], id, Math.floor(Date.now() / 1000), message.data);
  let status: number | null = null;
  let error: string | undefined;
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'sandbox-payments-listen', ...headers },
      body: message.data,
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (failure) {
    if (options.signal.aborted) return;
    error = causeOf(failure);
  }
  options.print({ kind: 'event', time: new Date().toISOString(), type: message.event, id, status, error });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** A line as people read it: `2026-11-24T19:30:00.123Z  payment.succeeded  evt_…  → 200`. */
export function formatListenLine(line: ListenLine): string {
  switch (line.kind) {
    case 'ready':
      return `Forwarding events to ${line.forward_to}\nSigning secret: ${line.secret} (kept in ${line.secret_file})`;
    case 'event':
      return `${line.time}  ${line.type}  ${line.id}  → ${line.status ?? `failed: ${line.error}`}`;
    case 'notice':
      return `-- ${line.message}`;
  }
}
