import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENT_TYPES } from '@/lib/events/types';
import { NOT_TRIGGERABLE } from '@/scripts/cli/trigger';
import { apiClient, createTestMerchant, eventually, sessionBody } from '../helpers';
import { bundledCliForThisFile } from '../support/bundled-cli';
import { startTestReceiver, type TestReceiver } from '../support/webhook-receiver';

// The admin CLI's `listen` and `trigger` (scripts/cli/) as a developer runs them: real processes against the
// running server, over HTTP only: their environment names a database that does not exist, so any use of
// one would fail. listen forwards to a local receiver that verifies each delivery with `standardwebhooks`.
// The CLI runs bundled once (scripts/sandbox.test.ts also runs it through tsx, as `npm run sandbox` does).

const run = promisify(execFile);
const CLI = [bundledCliForThisFile('listen')];

let merchant: { merchantId: string; key: string };
let api: ReturnType<typeof apiClient>;
let configDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  merchant = await createTestMerchant();
  api = apiClient(merchant.key);
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-config-'));
  const { DATABASE_URL: _database, ...inherited } = process.env;
  env = {
    ...inherited,
    DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/no_such_database',
    DATA_DIR: path.join(configDir, 'no-data-here'),
    SANDBOX_PAYMENTS_CONFIG_DIR: configDir,
    SANDBOX_API_KEY: merchant.key,
    APP_URL: inject('serverUrl'),
  };
});

afterAll(() => fs.rmSync(configDir, { recursive: true, force: true }));

async function sandbox(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A TCP relay to the server that the test can cut and refuse, as a network would drop the stream. */
async function startRelay(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    /** drops every connection, and refuses new ones until restored */
    cut: () => {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Listener = { process: ChildProcess; lines: string[]; stop: () => Promise<number | null> };

function startListen(args: string[]): Listener {
  const child = spawn(process.execPath, [...CLI, 'listen', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop()!;
    lines.push(...complete);
  });
  child.stderr!.on('data', (chunk: Buffer) => lines.push(`stderr: ${chunk.toString('utf8').trim()}`));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    process: child,
    lines,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

async function secretOf(listener: Listener): Promise<string> {
  const line = await eventually(
    async () => listener.lines.find((candidate) => candidate.startsWith('Signing secret: ')),
    (found) => found !== undefined,
    20_000,
  );
  expect(line, listener.lines.join('\n')).toBeDefined();
  return line!.match(/whsec_\S+/)![0];
}

/** A checkout_session.expired event through the API; its event id. */
async function expireOne(): Promise<string> {
  const session = await api.post('/v1/checkout-sessions', sessionBody());
  expect((await api.post(`/v1/checkout-sessions/${session.body.id}/expire`)).status).toBe(200);
  const events = await api.get('/v1/events?type=checkout_session.expired&limit=1');
  expect(events.body.data[0].data.object.id).toBe(session.body.id);
  return events.body.data[0].id;
}

describe('listen', () => {
  let receiver: TestReceiver;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  beforeAll(async () => {
    receiver = await startTestReceiver((nth) => ({ status: nth === 2 ? 500 : 200 }));
    relay = await startRelay(inject('serverUrl'));
  });
  afterAll(async () => {
    await receiver.close();
    await relay.close();
  });

  it('forwards every event signed with its own kept secret, prints a line for each, and resumes after a dropped stream', async () => {
    const listener = startListen([
      '--forward-to',
      receiver.url,
      '--base-url',
      relay.url,
      '--events',
      'checkout_session.expired,payment.failed',
    ]);
    try {
      const secret = await secretOf(listener);
      expect(fs.readFileSync(path.join(configDir, 'listen.json'), 'utf8')).toContain(secret);
      await eventually(
        async () => listener.lines.some((line) => line.includes('connected, listening for new events')),
        Boolean,
      );
      const made = [await expireOne(), await expireOne()];
      await receiver.waitFor(2);

      // the stream drops; events are made while listen cannot reach the sandbox; it reconnects and resumes
      relay.cut();
      made.push(await expireOne(), await expireOne());
      await new Promise((resolve) => setTimeout(resolve, 700));
      relay.restore();
      made.push(await expireOne());
      await receiver.waitFor(5, 20_000);
      // a type not asked for is not forwarded
      await api.post(
        `/v1/test-helpers/checkout-sessions/${(await api.post('/v1/checkout-sessions', sessionBody())).body.id}/pay`,
        {
          payment_method: 'card',
          card_number: '4242424242424242',
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 700));

      const verified = receiver.received.map(
        (webhook) => new Webhook(secret).verify(webhook.body, webhook.headers) as { id: string; type: string },
      );
      expect(verified.map((event) => event.id)).toEqual(made);
      expect(receiver.received.map((webhook) => webhook.headers['webhook-id'])).toEqual(made);
      for (const [index, webhook] of receiver.received.entries())
        expect(JSON.parse(webhook.body)).toEqual((await api.get(`/v1/events/${made[index]}`)).body);

      const eventLines = listener.lines.filter((line) => /^\d{4}-/.test(line));
      expect(eventLines).toHaveLength(5);
      for (const [index, line] of eventLines.entries()) {
        const [time, type, id, arrow, status] = line.split(/\s+/);
        expect(Date.parse(time)).not.toBeNaN();
        expect([type, id, arrow, status]).toEqual([
          'checkout_session.expired',
          made[index],
          '→',
          index === 1 ? '500' : '200',
        ]);
      }
      expect(listener.lines).toContain(`-- reconnected, resuming after ${made[1]}`);
    } finally {
      expect(await listener.stop()).toBe(0);
    }

    // a second run signs with the same secret
    const again = startListen(['--forward-to', receiver.url]);
    try {
      expect(await secretOf(again)).toBe(await secretOf(listener));
    } finally {
      await again.stop();
    }
  });

  it('refuses a key that cannot read events, and bad options, with an error', async () => {
    const { key } = await createTestMerchant({ scopes: ['payments:read'] });
    const refused = await sandbox(['listen', '--forward-to', receiver.url, '--api-key', key]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('403 insufficient_scope')]);
    const badType = await sandbox(['listen', '--forward-to', receiver.url, '--events', 'payment.created']);
    expect([badType.code, badType.stderr]).toEqual([
      2,
      expect.stringContaining('unknown event types: payment.created'),
    ]);
    const badUrl = await sandbox(['listen', '--forward-to', 'localhost:4000/hooks']);
    expect(badUrl.code).toBe(2);
  });
});

describe('trigger', () => {
  it.each(EVENT_TYPES.filter((type) => !(type in NOT_TRIGGERABLE)).map((type) => [type]))(
    '%s makes the calls that emit the event, and prints the ids',
    async (type) => {
      const { code, stdout, stderr } = await sandbox(['trigger', type, '--json']);
      expect(code, stderr).toBe(0);
      const printed = JSON.parse(stdout) as Record<string, string>;
      expect(printed.event_type).toBe(type);
      const ids = Object.entries(printed).filter(([name]) => name !== 'event_type');
      for (const [kind, id] of ids)
        expect(id).toMatch(kind === 'checkout_session' ? /^cs_/ : kind === 'payment' ? /^pay_/ : /^rr_/);
      const events = await api.get(`/v1/events?type=${type}&limit=20`);
      const about = events.body.data.filter((event: { data: { object: { id: string } } }) =>
        Object.values(printed).includes(event.data.object.id),
      );
      expect(about, JSON.stringify(printed)).toHaveLength(1);
    },
  );

  it('says why an event no API call causes cannot be triggered', async () => {
    const { code, stderr } = await sandbox(['trigger', 'refund_request.declined']);
    expect([code, stderr]).toEqual([
      1,
      expect.stringContaining('refund_request.declined cannot be triggered: a refund is declined only by a person'),
    ]);
  });

  it('lists the event types when given another', async () => {
    const { code, stderr } = await sandbox(['trigger', 'payment.created']);
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown event type: payment.created (use ${EVENT_TYPES.join(', ')})`);
    const plain = await sandbox(['trigger', 'payment.failed']);
    expect(plain.stdout).toMatch(/^event_type: payment\.failed\ncheckout_session: cs_\w+\npayment: pay_\w+\n$/);
  });
});
