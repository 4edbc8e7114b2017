// The admin CLI (api.md §12): npm run sandbox -- <command> [--json]
// With --json, stdout carries exactly one JSON object; everything else goes to stderr.
import { parseArgs } from 'node:util';
import { createApiKey, revokeApiKey } from '@/lib/api-keys/service';
import { isScope, SCOPES, type Scope } from '@/lib/api-keys/scopes';
import { db, disconnect } from '@/lib/db';
import { stopEmbeddedServer } from '@/lib/db/embedded';
import { dataDir } from '@/lib/env';
import type { PaymentMethod } from '@/lib/generated/prisma/client';
import { startWorker } from '@/lib/jobs/worker';
import { seedDemo } from '@/lib/merchants/seed';
import { ALL_PAYMENT_METHODS, approveWebsite, createMerchant, setPaymentMethods, setRefundPolicy } from '@/lib/merchants/service';
import { printDemoLogin } from '@/lib/server/startup';
import { createUser } from '@/lib/users/service';

const USAGE = `usage: npm run sandbox -- <command> [options] [--json]

  migrate                                         apply pending migrations
  seed                                            create the demo merchant if the database is empty
  create-merchant --name N [--email E --password P]
  approve-website --merchant ID --host H
  set-methods --merchant ID --methods card,usdc
  set-refund-policy --merchant ID --policy automatic|manual
  create-key --merchant ID [--scopes a,b]         all scopes when omitted
  revoke-key --key-id ID
  worker                                          run the background worker alone
  db-stop                                         stop the embedded PostgreSQL of DATA_DIR`;

class UsageError extends Error {}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'boolean', default: false },
    name: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    merchant: { type: 'string' },
    host: { type: 'string' },
    methods: { type: 'string' },
    policy: { type: 'string' },
    scopes: { type: 'string' },
    'key-id': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function list(raw: string): string[] {
  return raw.split(',').map((part) => part.trim()).filter(Boolean);
}

async function run(command: string | undefined): Promise<Record<string, unknown> | undefined> {
  switch (command) {
    case 'migrate':
      await db();
      return { migrated: true };
    case 'seed': {
      const seeded = await seedDemo(await db());
      if (seeded.created && !values.json) printDemoLogin(seeded);
      const { created: _created, ...rest } = seeded;
      return rest;
    }
    case 'create-merchant': {
      const client = await db();
      const merchant = await createMerchant(client, { name: required('name') });
      if (values.email || values.password) await createUser(client, { merchantId: merchant.id, email: required('email'), password: required('password') });
      return { id: merchant.id, name: merchant.name };
    }
    case 'approve-website': {
      const merchantId = required('merchant');
      return { merchant_id: merchantId, host: await approveWebsite(await db(), merchantId, required('host')) };
    }
    case 'set-methods': {
      const merchantId = required('merchant');
      const methods = list(required('methods'));
      const unknown = methods.filter((method) => !ALL_PAYMENT_METHODS.includes(method as PaymentMethod));
      if (unknown.length) throw new UsageError(`unknown payment methods: ${unknown.join(', ')} (use ${ALL_PAYMENT_METHODS.join(', ')})`);
      return { merchant_id: merchantId, payment_methods: await setPaymentMethods(await db(), merchantId, methods as PaymentMethod[]) };
    }
    case 'set-refund-policy': {
      const merchantId = required('merchant');
      const policy = required('policy');
      if (policy !== 'automatic' && policy !== 'manual') throw new UsageError('--policy is automatic or manual');
      return { merchant_id: merchantId, refund_policy: await setRefundPolicy(await db(), merchantId, policy) };
    }
    case 'create-key': {
      const scopes = values.scopes ? list(values.scopes) : [...SCOPES];
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (unknown.length) throw new UsageError(`unknown scopes: ${unknown.join(', ')} (use ${SCOPES.join(', ')})`);
      const key = await createApiKey(await db(), required('merchant'), scopes as Scope[]);
      return { id: key.id, key: key.key, scopes: key.scopes };
    }
    case 'revoke-key': {
      const id = required('key-id');
      if (!(await revokeApiKey(await db(), id))) throw new UsageError(`no active key ${id}`);
      return { id, revoked: true };
    }
    case 'worker': {
      await db();
      const worker = startWorker();
      await new Promise<void>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
      });
      await worker.stop();
      return undefined;
    }
    case 'db-stop':
      await stopEmbeddedServer(dataDir());
      return { stopped: true };
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

async function main(): Promise<number> {
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const result = await run(positionals[0]);
    if (result) process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${formatPlain(result)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (values.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    process.stderr.write(`error: ${message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await disconnect().catch(() => {});
  }
}

function formatPlain(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('\n');
}

process.exitCode = await main();
