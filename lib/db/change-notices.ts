import pg from 'pg';
import { describeError, log } from '@/lib/log';

// The one connection of a process that LISTENs for the change notices that triggers send when an API key
// or a merchant's settings change (prisma/migrations/*_change_notifications). Caches in memory
// (notified-cache.ts) may answer only while this connection is current: a heartbeat answered less than
// CURRENT_FOR_MS ago proves that every notice committed before that heartbeat was sent has arrived,
// because PostgreSQL delivers a session's pending notices before it answers the session's next query.
// So a change reaches every process within CURRENT_FOR_MS even when the connection dies without a word.

export const CHANNEL = 'cache_changes';
/** Committed events, '<merchant id> <event id>' (prisma/migrations/*_event_stream), for the open event streams. */
export const EVENTS_CHANNEL = 'event_created';
export const APPLICATION_NAME = 'sandbox-change-notices';
const HEARTBEAT_MS = 250;
const CURRENT_FOR_MS = 900;
const RECONNECT_MS = [100, 250, 500, 1000, 2000];

export type ChangeSubscriber = {
  /** The channel it hears: the caches' when unset. */
  channel?: typeof CHANNEL | typeof EVENTS_CHANNEL;
  /** A row changed: 'api_key:<id>', 'merchant:<id>', or '*' for everything (on EVENTS_CHANNEL, the notice). */
  changed: (target: string) => void;
  /** Notices may have been missed: forget everything. */
  reset: () => void;
};

type Connection = { client: pg.Client; provenAt: number; heartbeat?: NodeJS.Timeout; dead?: boolean };

class ChangeNotices {
  private readonly subscribers = new Set<ChangeSubscriber>();
  private connection?: Connection;
  private started = false;
  private stopped = false;
  private failures = 0;

  constructor(private readonly connectionString: () => Promise<string>) {}

  subscribe(subscriber: ChangeSubscriber): void {
    this.subscribers.add(subscriber);
    if (!this.started) {
      this.started = true;
      void this.connect();
    }
  }

  unsubscribe(subscriber: ChangeSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** True while every change committed more than CURRENT_FOR_MS ago is known to have reached us. */
  isCurrent(): boolean {
    return this.connection !== undefined && performance.now() - this.connection.provenAt < CURRENT_FOR_MS;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const connection = this.connection;
    this.drop();
    await connection?.client.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let connectionString: string;
    try {
      connectionString = await this.connectionString();
    } catch {
      // no database to connect to (the embedded one is stopped): try again later, as after a lost connection
      return this.reconnectLater();
    }
    const client = new pg.Client({ connectionString, application_name: APPLICATION_NAME });
    const connection: Connection = { client, provenAt: -Infinity };
    client.on('notification', (message) => {
      if (this.connection !== connection || !message.payload) return;
      for (const subscriber of this.subscribers) {
        if ((subscriber.channel ?? CHANNEL) === message.channel) subscriber.changed(message.payload);
      }
    });
    client.on('error', (error) => this.lost(connection, error));
    client.on('end', () => this.lost(connection));
    try {
      await client.connect();
      // nothing of a pg socket should keep a CLI or a test process alive
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await client.query(`LISTEN ${CHANNEL}; LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      this.lost(connection, error);
      return;
    }
    if (this.stopped) return void client.end().catch(() => {});
    // what changed while no one listened is unknown
    this.tell((subscriber) => subscriber.reset());
    this.connection = connection;
    this.failures = 0;
    this.beat(connection);
  }

  private beat(connection: Connection): void {
    const sentAt = performance.now();
    connection.client.query('SELECT 1').then(
      () => {
        connection.provenAt = Math.max(connection.provenAt, sentAt);
        if (this.connection !== connection) return;
        connection.heartbeat = setTimeout(() => this.beat(connection), HEARTBEAT_MS);
        connection.heartbeat.unref();
      },
      (error) => this.lost(connection, error),
    );
  }

  private lost(connection: Connection, error?: unknown): void {
    // a dying connection may report an error and then its end: reconnect once
    if (connection.dead) return;
    connection.dead = true;
    const wasCurrent = this.connection === connection;
    if (wasCurrent) this.drop();
    connection.client.end().catch(() => {});
    if (this.stopped) return;
    if (wasCurrent) log.warn('change notices lost; caches are bypassed until they are back', describeError(error));
    this.reconnectLater();
  }

  /** Sooner after a first failure, every RECONNECT_MS's last after several: a lost database is not hammered. */
  private reconnectLater(): void {
    if (this.stopped) return;
    const delay = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)];
    this.failures += 1;
    setTimeout(() => void this.connect(), delay).unref();
  }

  private drop(): void {
    if (this.connection?.heartbeat) clearTimeout(this.connection.heartbeat);
    this.connection = undefined;
    this.tell((subscriber) => subscriber.reset());
  }

  private tell(call: (subscriber: ChangeSubscriber) => void): void {
    for (const subscriber of this.subscribers) call(subscriber);
  }
}

/**
 * Resolves once every process has heard of what was committed before the call, or stopped answering from
 * memory: after CURRENT_FOR_MS, a process's last answered heartbeat was sent after that commit, or its
 * caches are bypassed.
 */
export function everyProcessHasHeard(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, CURRENT_FOR_MS));
}

const globalForNotices = globalThis as unknown as { sandboxChangeNotices?: ChangeNotices };

/** This process's listener, started by its first subscriber. */
export function changeNotices(connectionString: () => Promise<string>): ChangeNotices {
  globalForNotices.sandboxChangeNotices ??= new ChangeNotices(connectionString);
  return globalForNotices.sandboxChangeNotices;
}

export async function stopChangeNotices(): Promise<void> {
  const notices = globalForNotices.sandboxChangeNotices;
  globalForNotices.sandboxChangeNotices = undefined;
  await notices?.stop();
}
