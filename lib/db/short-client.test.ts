import pg from 'pg';
import { expect, it } from 'vitest';
import { withClient } from './short-client';

// What a fast shutdown does to every connected client, done to one: its backend is ended while it sits idle
// between statements. A bare pg client throws that at the process (Vitest reports it as an uncaught error
// and fails the run); a short client's next statement fails instead.

const config = { connectionString: process.env.DATABASE_URL };

it('a backend ended between statements fails the next statement, not the process', async () => {
  const next = withClient(config, async (client) => {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise((resolve) => client.once('end', resolve));
    await withClient(config, (admin) => admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]));
    await ended;
    return client.query('SELECT 1');
  });
  await expect(next).rejects.toThrow();
});

it('a server that cannot be reached fails the open', async () => {
  const unreachable = { host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 } satisfies pg.ClientConfig;
  await expect(withClient(unreachable, async () => 'never')).rejects.toThrow();
});
