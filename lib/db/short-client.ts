import pg from 'pg';

// A pg client opened for a few statements and closed. PostgreSQL tells every connected client, unasked, when
// it is shutting down or the client's backend is ended (57P01); pg emits that as an 'error' event, and an
// 'error' event nobody listens to is an uncaught exception that ends the process: a probe or a readiness
// check that happened to be connected at that moment took down the process that ran it. Here the news fails
// the client's next statement instead, which the caller already handles.

/** A connected client whose connection errors reach its next statement, never the process. */
export async function openClient(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

/** `work` on a client opened for it, closed after it whatever happened. */
export async function withClient<T>(config: pg.ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await openClient(config);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}
