import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '@/test/support/event-stream-client';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { createClusterMerchant, query, startCluster, stopCluster, type Cluster } from './cluster';

// SIGTERM, as a deploy or an autoscaler sends it: requests already accepted are answered, nothing new is
// taken, the worker finishes its pass and exits cleanly.

let cluster: Cluster;
let receiver: TestReceiver;
let key: string;

beforeAll(async () => {
  cluster = await startCluster({ webs: 1, workers: 1 });
  receiver = await startTestReceiver();
  [key] = (await createClusterMerchant(cluster, 1, receiver.url)).keys;
}, 180_000);

afterAll(() => stopCluster(cluster, receiver));

describe('graceful shutdown', () => {
  it('answers every request it accepted before SIGTERM, then exits', async () => {
    const [web] = cluster.webs;
    const exited = new Promise<number | null>((resolve) => web.child.once('exit', (code) => resolve(code)));
    const requests = Array.from({ length: 20 }, () =>
      fetch(`${web.url}/v1/checkout-sessions`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({
          order_reference: `bye-${randomUUID()}`,
          currency: 'USD',
          items: [{ name: 'Last one', quantity: 1, unit_amount: 500 }],
          amount: 500,
          return_url: 'https://shop.example.com/thanks',
        }),
      }).then(
        async (response) => ({ status: response.status, id: ((await response.json()) as { id?: string }).id }),
        (error: Error) => ({ status: 0, error: String(error.cause ?? error) }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    web.child.kill('SIGTERM');
    const answers = await Promise.all(requests);
    expect(await exited).toBe(143); // Next.js exits 128 + SIGTERM once it has drained
    // an accepted request got its answer; one that came too late was refused a connection, never cut off
    for (const answer of answers) {
      if (answer.status === 0)
        expect((answer as { error: string }).error).toMatch(/ECONNREFUSED|ECONNRESET|other side closed/);
      else expect(answer.status).toBe(201);
    }
    const created = answers.filter((answer) => answer.status === 201).map((answer) => (answer as { id: string }).id);
    const rows = await query<{ id: string }>(
      cluster.databaseUrl,
      'SELECT id FROM checkout_sessions WHERE id = ANY($1)',
      [created],
    );
    expect(rows).toHaveLength(created.length);
  });

  it('exits 10 s after SIGTERM whatever still holds it, such as an event stream that lasts an hour', async () => {
    const web = await cluster.startWeb();
    const stream = await openStream(key, { baseUrl: web.url });
    expect(stream.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => web.child.once('exit', (code) => resolve(code)));
    const signalled = performance.now();
    web.child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('running'), 20_000)),
    ]);
    stream.close();
    expect(code, 'the process was still running 20 s after SIGTERM').toBe(143);
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(9_000);
  });

  it('lets a worker finish its pass and exit 0', async () => {
    const [worker] = cluster.workers;
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    const started = Date.now();
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
