import { errors } from '@/lib/core/errors';
import { db, runningDatabaseUrl } from '@/lib/db';
import { changeNotices, EVENTS_CHANNEL, type ChangeSubscriber } from '@/lib/db/change-notices';
import { env } from '@/lib/env';
import type { Event } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import { describeError, log } from '@/lib/log';
import type { Scope } from '@/lib/api-keys/scopes';
import { keysWithScope } from '@/lib/api-keys/service';
import { findEventsByIds, findEventSeqSince, findLatestEventSeq, findStreamEvents } from './repository';
import { serializeEvent } from './serialize';
import type { EventType } from './types';

// GET /v1/events/stream (/docs#operation/streamEvents): a merchant's new events as Server-Sent Events, whichever
// process wrote them. A trigger on events sends a notice on commit (prisma/migrations/*_event_stream), which
// this process's one LISTEN connection (lib/db/change-notices.ts) hands to StreamFanOut. It reads each noticed
// event once, for every open stream of this process (so the database does one read per event, not one per
// stream), and hands it to the streams of that merchant, which keep the types they asked for. A stream reads
// on its own only to catch up (a resumed stream, a lost listener), in the order events were written (events.seq),
// so nothing depends on a notice arriving. What could go wrong, and why not:
// - an event committed between a stream's first read and its listening: it listens first, then reads;
// - a lost listener: when it is back (or while it is not known to be current) every stream reads again;
// - an event committed after one written later was already read (seq is taken at insert, not at commit): its
//   notice names it, so it is read by id; and a stream that reads again after a lost listener starts from
//   where it was REWIND_MS earlier, longer than any transaction runs, skipping what it already sent.
// Limits: each process holds at most EVENT_STREAMS_PER_MERCHANT streams of one merchant and
// EVENT_STREAMS_PER_ADDRESS of one client address (then 429), and a stream ends within a second of its key
// being revoked or losing events:read, in every process (the key's change notice, lib/db/change-notices.ts).

const BATCH = 100;
/** Longer than a transaction may take (lib/db inTransaction's timeout is 20 s). */
const REWIND_MS = 60_000;
/** Last-Event-ID resumes after an event of this long ago at most. */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;

const encoder = new TextEncoder();

/** One Server-Sent Events message: id, event and data lines (JSON holds no line break) and a blank line. */
export function eventMessage(event: Pick<Event, 'id' | 'type' | 'data' | 'createdAt'>): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(serializeEvent(event))}\n\n`;
}

export const PING = ': ping\n\n';

/** The scope GET /v1/events/stream needs (streamEventsOperation): a key that loses it loses its streams. */
const STREAM_SCOPE: Scope = 'events:read';

/** Until a slot may be free: a client retries then, or when one of its own streams ends. */
const STREAM_LIMIT_RETRY_SECONDS = 10;

/** The streams open in this process, by merchant, fed by the event notices of its listener. */
class StreamFanOut implements ChangeSubscriber {
  readonly channel = EVENTS_CHANNEL;
  private readonly streams = new Map<string, Set<MerchantEventStream>>();
  private readonly byAddress = new Map<string, number>();
  /** Noticed events of merchants with streams open here, not read yet: event id → merchant id. */
  private readonly noticedIds = new Map<string, string>();
  private reading = false;
  private readAgainAfter = false;
  private notices?: ReturnType<typeof changeNotices>;
  /** Hears the API keys' change notices: a stream of a key revoked (or without events:read now) ends. */
  private readonly keyChanges: ChangeSubscriber = {
    changed: (target) => {
      if (target === '*') return void this.checkKeys();
      const keyId = target.startsWith('api_key:') ? target.slice('api_key:'.length) : undefined;
      if (keyId !== undefined && this.streamsOfKey(keyId).length > 0) void this.checkKeys([keyId]);
    },
    reset: () => void this.checkKeys(),
  };

  /** Adds the stream, or refuses it (429) when its merchant or its client address holds the most streams here. */
  add(stream: MerchantEventStream): void {
    const { EVENT_STREAMS_PER_MERCHANT, EVENT_STREAMS_PER_ADDRESS } = env();
    const streams = this.streams.get(stream.merchantId) ?? new Set();
    if (streams.size >= EVENT_STREAMS_PER_MERCHANT)
      throw errors.rateLimited(
        STREAM_LIMIT_RETRY_SECONDS,
        `Too many open event streams: an account may hold ${EVENT_STREAMS_PER_MERCHANT} at once on this server (EVENT_STREAMS_PER_MERCHANT); close one, or retry later`,
      );
    const fromAddress = stream.address === null ? 0 : (this.byAddress.get(stream.address) ?? 0);
    if (fromAddress >= EVENT_STREAMS_PER_ADDRESS)
      throw errors.rateLimited(
        STREAM_LIMIT_RETRY_SECONDS,
        `Too many open event streams from your address: at most ${EVENT_STREAMS_PER_ADDRESS} at once on this server (EVENT_STREAMS_PER_ADDRESS); close one, or retry later`,
      );
    streams.add(stream);
    this.streams.set(stream.merchantId, streams);
    if (stream.address !== null) this.byAddress.set(stream.address, fromAddress + 1);
    this.listener();
  }

  /** How many streams this process has open. */
  get size(): number {
    let open = 0;
    for (const streams of this.streams.values()) open += streams.size;
    return open;
  }

  remove(stream: MerchantEventStream): void {
    const streams = this.streams.get(stream.merchantId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) this.streams.delete(stream.merchantId);
    if (stream.address === null) return;
    const fromAddress = (this.byAddress.get(stream.address) ?? 1) - 1;
    if (fromAddress > 0) this.byAddress.set(stream.address, fromAddress);
    else this.byAddress.delete(stream.address);
  }

  /** Whether every event committed a moment ago is known to have been noticed (else streams read on their own). */
  isCurrent(): boolean {
    return this.listener().isCurrent();
  }

  changed(notice: string): void {
    const [merchantId, eventId] = notice.split(' ');
    if (!this.streams.has(merchantId) || !eventId) return;
    this.noticedIds.set(eventId, merchantId);
    void this.readNoticed();
  }

  reset(): void {
    for (const streams of this.streams.values()) for (const stream of streams) stream.readAgain();
  }

  /** Reads the noticed events, all at once, and hands each to its merchant's streams here, in the order written. */
  private async readNoticed(): Promise<void> {
    if (this.reading) {
      this.readAgainAfter = true;
      return;
    }
    this.reading = true;
    const noticed = [...this.noticedIds];
    this.noticedIds.clear();
    try {
      const rows = await findEventsByIds(
        await db(),
        noticed.map(([eventId]) => eventId),
      );
      for (const row of rows) {
        // the message is the same for every stream: made once
        const message = eventMessage(row);
        for (const stream of this.streams.get(row.merchantId) ?? []) stream.deliver(row, message);
      }
    } catch (error) {
      log.warn('event streams could not read noticed events; trying again', describeError(error));
      for (const [eventId, merchantId] of noticed) this.noticedIds.set(eventId, merchantId);
      setTimeout(() => void this.readNoticed(), 1000).unref();
    } finally {
      this.reading = false;
      if (this.readAgainAfter) {
        this.readAgainAfter = false;
        void this.readNoticed();
      }
    }
  }

  private streamsOfKey(keyId: string): MerchantEventStream[] {
    const found: MerchantEventStream[] = [];
    for (const streams of this.streams.values())
      for (const stream of streams) if (stream.keyId === keyId) found.push(stream);
    return found;
  }

  /** Ends the streams of the keys (all those with streams here, when not given) that no longer may read events. */
  private async checkKeys(keyIds?: string[]): Promise<void> {
    const asked = keyIds ?? [
      ...new Set([...this.streams.values()].flatMap((streams) => [...streams].map((stream) => stream.keyId))),
    ];
    if (asked.length === 0) return;
    try {
      const allowed = new Set(await keysWithScope(asked, STREAM_SCOPE));
      for (const keyId of asked) if (!allowed.has(keyId)) for (const stream of this.streamsOfKey(keyId)) stream.close();
    } catch (error) {
      log.warn('event streams could not check their keys; trying again', describeError(error));
      setTimeout(() => void this.checkKeys(keyIds), 1000).unref();
    }
  }

  private listener() {
    // the process's listener is made anew after stopChangeNotices (tests, the CLI): follow it
    const notices = changeNotices(runningDatabaseUrl);
    if (notices !== this.notices) {
      this.notices?.unsubscribe(this);
      this.notices?.unsubscribe(this.keyChanges);
      this.notices = notices;
      notices.subscribe(this);
      notices.subscribe(this.keyChanges);
    }
    return notices;
  }
}

const globalForStreams = globalThis as unknown as { sandboxEventStreams?: StreamFanOut };
function fanOut(): StreamFanOut {
  globalForStreams.sandboxEventStreams ??= new StreamFanOut();
  return globalForStreams.sandboxEventStreams;
}

class MerchantEventStream {
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  private cursor = 0n;
  /** The cursor over time, oldest first, from the newest entry at least REWIND_MS old: [0] is where a rewind starts. */
  private history: { at: number; cursor: bigint }[] = [];
  private readonly sent = new Map<string, number>();
  private readonly pendingIds = new Set<string>();
  private rewind = false;
  private reading = false;
  private readAgainAfter = false;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    readonly merchantId: string,
    /** the API key it was opened with: its revocation ends the stream */
    readonly keyId: string,
    /** the client's address, for the limit of streams per address (null when unknown) */
    readonly address: string | null,
    private readonly types: readonly EventType[] | undefined,
  ) {}

  begin(cursor: bigint): void {
    this.cursor = cursor;
    this.history = [{ at: -Infinity, cursor }];
  }

  body(signal: AbortSignal): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        this.write(PING);
        const { EVENT_STREAM_PING_MS, EVENT_STREAM_MAX_SECONDS } = env();
        this.timers.push(
          setInterval(() => {
            this.write(PING);
            // no proof that notices arrive: read on our own, from a little earlier
            if (!fanOut().isCurrent()) this.readAgain();
          }, EVENT_STREAM_PING_MS),
          setTimeout(() => this.close(), EVENT_STREAM_MAX_SECONDS * 1000),
        );
        if (signal.aborted) return this.close();
        signal.addEventListener('abort', () => this.close(), { once: true });
      },
      cancel: () => this.close(),
    });
  }

  /**
   * Reads what was written after the cursor (a resumed stream), or noticed while the stream was being set
   * up, before the stream is answered: so the request's own round trips are counted whole.
   */
  async catchUp(resumed: boolean): Promise<void> {
    if (resumed || this.pendingIds.size > 0) await this.schedule();
  }

  /** A new event of its merchant, read once for every stream of this process (StreamFanOut). */
  deliver(row: Event, message: string): void {
    if (this.closed || this.sent.has(row.id)) return;
    if (this.types && !this.types.includes(row.type as EventType)) return;
    // not answered yet (catchUp reads it), or reading on its own: read after what it is reading, in the order written
    if (!this.controller || this.reading) {
      this.pendingIds.add(row.id);
      if (this.reading) this.readAgainAfter = true;
      return;
    }
    this.send(row, message);
  }

  readAgain(): void {
    this.rewind = true;
    void this.schedule();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fanOut().remove(this);
    log.debug('event stream closed', { merchant_id: this.merchantId, open_in_process: fanOut().size });
    for (const timer of this.timers) clearTimeout(timer);
    try {
      this.controller?.close();
    } catch {
      // the client already went away
    }
  }

  private schedule(): Promise<void> | undefined {
    if (this.closed || !this.controller) return;
    if (this.reading) {
      this.readAgainAfter = true;
      return;
    }
    this.reading = true;
    return this.read().finally(() => {
      this.reading = false;
      if (this.readAgainAfter) {
        this.readAgainAfter = false;
        void this.schedule();
      }
    });
  }

  private async read(): Promise<void> {
    let from = this.rewind ? this.floor() : this.cursor;
    let ids = [...this.pendingIds];
    this.rewind = false;
    this.pendingIds.clear();
    try {
      const database = await db();
      while (!this.closed) {
        const rows = await findStreamEvents(database, this.merchantId, {
          afterSeq: from,
          ids,
          types: this.types,
          limit: BATCH,
        });
        for (const row of rows) this.send(row);
        if (rows.length < BATCH) return;
        // a full page may have left out some of the ids asked for: ask again with the next page
        ids = ids.filter((id) => !this.sent.has(id));
        from = rows[rows.length - 1].seq;
      }
    } catch (error) {
      if (this.closed) return;
      log.warn('event stream could not read; trying again', describeError(error));
      for (const id of ids) this.pendingIds.add(id);
      this.rewind = true;
      this.timers.push(setTimeout(() => void this.schedule(), 1000));
    }
  }

  private send(row: Event, message = eventMessage(row)): void {
    if (this.sent.has(row.id)) return;
    const now = Date.now();
    this.sent.set(row.id, now);
    if (row.seq > this.cursor) {
      this.cursor = row.seq;
      this.history.push({ at: now, cursor: row.seq });
    }
    this.write(message);
    this.forgetOld(now);
  }

  /** Where a read after a lost listener starts: the cursor of REWIND_MS ago. */
  private floor(): bigint {
    this.forgetOld(Date.now());
    return this.history[0].cursor;
  }

  private forgetOld(now: number): void {
    while (this.history.length > 1 && this.history[1].at <= now - REWIND_MS) this.history.shift();
    // every event sent before history[0] was written has a seq at most its cursor; twice the window is ample
    for (const [id, at] of this.sent) {
      if (at > now - 2 * REWIND_MS) break;
      this.sent.delete(id);
    }
  }

  private write(text: string): void {
    if (this.closed) return;
    try {
      this.controller?.enqueue(encoder.encode(text));
    } catch {
      this.close();
    }
  }
}

/**
 * A merchant's event stream from now, or, with `lastEventId`, from after that event (one of the last 24
 * hours, else `400 parameter_invalid`). It listens before it reads, so no event falls between the two.
 */
export async function openEventStream(
  merchantId: string,
  options: {
    keyId: string;
    address: string | null;
    types?: readonly EventType[];
    lastEventId?: string;
    signal: AbortSignal;
  },
): Promise<ReadableStream<Uint8Array>> {
  const stream = new MerchantEventStream(merchantId, options.keyId, options.address, options.types);
  fanOut().add(stream);
  try {
    const database = await db();
    const { lastEventId } = options;
    let cursor: bigint | undefined;
    if (lastEventId !== undefined) {
      cursor = isId('event', lastEventId)
        ? await findEventSeqSince(database, merchantId, lastEventId, new Date(Date.now() - RESUME_WINDOW_MS))
        : undefined;
      if (cursor === undefined)
        throw errors.parameterInvalid(
          `No event '${lastEventId}' of the last 24 hours to resume after: connect without Last-Event-ID to start from now`,
          'Last-Event-ID',
          'The event to resume after is older than 24 hours. Start again from now.',
        );
    } else cursor = await findLatestEventSeq(database, merchantId);
    stream.begin(cursor);
    const body = stream.body(options.signal);
    await stream.catchUp(lastEventId !== undefined);
    return body;
  } catch (error) {
    stream.close();
    throw error;
  }
}
