// The admin CLI (README, Administration): npm run sandbox -- <command> [--json]
// With --json, stdout carries exactly one JSON object (listen: one per line); everything else goes to stderr.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createApiKey, revokeAnyApiKey } from '@/lib/api-keys/service';
import { apiKeyNameInput } from '@/lib/api-keys/schemas';
import { isScope, SCOPES, type Scope } from '@/lib/api-keys/scopes';
import { connectionContext, type RequestContext } from '@/lib/core/context';
import { db, disconnect } from '@/lib/db';
import { stopEmbeddedServer } from '@/lib/db/embedded';
import { dataDir } from '@/lib/env';
import type { PaymentMethod } from '@/lib/generated/prisma/client';
import { startWorker } from '@/lib/jobs/worker';
import { seedDemo } from '@/lib/merchants/seed';
import {
  ALL_PAYMENT_METHODS,
  approveWebsite,
  createMerchant,
  merchantExists,
  setPaymentMethods,
  setRefundPolicy,
} from '@/lib/merchants/service';
import { printDemoLogin } from '@/lib/server/startup';
import { createUser } from '@/lib/users/service';
import { EVENT_TYPES } from '@/lib/events/types';
import { apiTarget } from './cli/api';
import { formatListenLine, listen } from './cli/listen';
import { isTriggerable, trigger, DEFAULT_RETURN_URL } from './cli/trigger';

// the installed package's `sandbox-payments` command runs this CLI too, under its own name
const USAGE = `usage: ${process.env.SANDBOX_CLI_NAME ?? 'npm run sandbox --'} <command> [options] [--json]

  migrate                                         apply pending migrations
  seed                                            create the demo merchant if the database is empty
  create-merchant --name N [--email E --password P]
  approve-website --merchant ID --host H
  set-methods --merchant ID --methods card,usdc
  set-refund-policy --merchant ID --policy automatic|manual
  create-key --merchant ID [--scopes a,b] [--name N]  all scopes when omitted; N labels it in the dashboard
  revoke-key --key-id ID
  worker                                          run the background worker alone
  db-stop                                         stop the embedded PostgreSQL of DATA_DIR

  These two need no database, only a sandbox's API (--api-key defaults to SANDBOX_API_KEY, --base-url to
  APP_URL, else http://localhost:3000):
  listen --forward-to URL [--events a,b] [--api-key K] [--base-url U]
      follow the account's events (GET /v1/events/stream) and POST each to URL, signed per Standard Webhooks
      with a whsec_ secret printed at start and kept in the user's config folder (SANDBOX_PAYMENTS_CONFIG_DIR
      overrides it); a line per event: time, type, id, URL's status (--json: a JSON object per line)
  trigger <event-type> [--api-key K] [--base-url U] [--return-url R]
      make the API calls that cause one event, and print the ids made; R is an approved website
      (default ${DEFAULT_RETURN_URL}). Types: ${EVENT_TYPES.join(', ')}`;

class UsageError extends Error {}
/** A command that could not be done, said in one line (no usage): exit 1. */
class CommandError extends Error {}

const OPTIONS = {
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
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  'return-url': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

type OptionName = keyof typeof OPTIONS;

// the options each command reads; --json and --help go with any
const COMMAND_OPTIONS = {
  migrate: [],
  seed: [],
  'create-merchant': ['name', 'email', 'password'],
  'approve-website': ['merchant', 'host'],
  'set-methods': ['merchant', 'methods'],
  'set-refund-policy': ['merchant', 'policy'],
  'create-key': ['merchant', 'scopes', 'name'],
  'revoke-key': ['key-id'],
  worker: [],
  'db-stop': [],
  listen: ['forward-to', 'events', 'api-key', 'base-url'],
  trigger: ['api-key', 'base-url', 'return-url'],
} satisfies Record<string, OptionName[]>;

type Command = keyof typeof COMMAND_OPTIONS;

function parseOptions(args: string[]) {
  return parseArgs({ args, options: OPTIONS, allowPositionals: true });
}

type Values = ReturnType<typeof parseOptions>['values'];

/**
 * Node's parseArgs throws its mistakes as a stack trace with advice over several lines, so each one is
 * looked for here first, on the tokens of a lenient parse, and becomes a one-line UsageError.
 */
function readOptions(args: string[]): ReturnType<typeof parseOptions> {
  const { tokens } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(OPTIONS, token.name)) throw new UsageError(`unknown option ${token.rawName}`);
    const takesValue = OPTIONS[token.name as OptionName].type === 'string';
    if (!takesValue && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
    // a lenient parse takes the next word as the value even when it is another option (`--merchant --json`)
    const missing = token.value === undefined || (!token.inlineValue && token.value.startsWith('-'));
    if (takesValue && missing) throw new UsageError(`${token.rawName} needs a value`);
  }
  return parseOptions(args);
}

// the commands that take an argument besides their options
const COMMAND_ARGUMENTS: Partial<Record<Command, string>> = { trigger: 'an event type' };

function readCommand(positionals: string[], values: Values): { command: Command; argument?: string } {
  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('a command is required');
  if (!Object.hasOwn(COMMAND_OPTIONS, command)) throw new UsageError(`unknown command: ${command}`);
  const argumentName = COMMAND_ARGUMENTS[command as Command];
  const [argument, ...extra] = argumentName ? rest : [undefined, ...rest];
  if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}`);
  if (argumentName && argument === undefined) throw new UsageError(`${command} needs ${argumentName}`);
  const accepted: string[] = ['json', 'help', ...COMMAND_OPTIONS[command as Command]];
  const foreign = Object.keys(values).find((name) => !accepted.includes(name));
  if (foreign) throw new UsageError(`${command} does not take --${foreign}`);
  return { command: command as Command, argument };
}

function required(values: Values, name: Exclude<OptionName, 'json' | 'help'>): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** The database, once the merchant the command names is known to exist there. */
/** The context the CLI acts for a merchant with; its commands write settings and keys, which read no time. */
async function withMerchant(merchantId: string): Promise<RequestContext> {
  const client = await db();
  if (!(await merchantExists(client, merchantId))) throw new CommandError(`no merchant ${merchantId}`);
  return connectionContext(client, merchantId, 0);
}

function list(raw: string): string[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** listen's and trigger's sandbox: its address and key. */
function target(values: Values) {
  const found = apiTarget({ apiKey: values['api-key'], baseUrl: values['base-url'] });
  if (typeof found === 'string') throw new UsageError(found);
  return found;
}

function eventTypes(raw: string): string[] {
  const types = list(raw);
  const unknown = types.filter((type) => !isTriggerable(type));
  if (unknown.length)
    throw new UsageError(`unknown event types: ${unknown.join(', ')} (use ${EVENT_TYPES.join(', ')})`);
  return types;
}

async function run(
  command: Command,
  values: Values,
  argument: string | undefined,
): Promise<Record<string, unknown> | undefined> {
  // options are read before db(): a mistake in them must not start (or wait for) a database
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
      const name = required(values, 'name');
      const login =
        values.email || values.password
          ? { email: required(values, 'email'), password: required(values, 'password') }
          : undefined;
      const client = await db();
      const merchant = await createMerchant(client, { name });
      if (login) await createUser(client, { merchantId: merchant.id, ...login });
      return { id: merchant.id, name: merchant.name };
    }
    case 'approve-website': {
      const merchantId = required(values, 'merchant');
      const host = required(values, 'host');
      return { merchant_id: merchantId, host: await approveWebsite(await withMerchant(merchantId), host) };
    }
    case 'set-methods': {
      const merchantId = required(values, 'merchant');
      const methods = list(required(values, 'methods'));
      const unknown = methods.filter((method) => !ALL_PAYMENT_METHODS.includes(method as PaymentMethod));
      if (unknown.length)
        throw new UsageError(`unknown payment methods: ${unknown.join(', ')} (use ${ALL_PAYMENT_METHODS.join(', ')})`);
      return {
        merchant_id: merchantId,
        payment_methods: await setPaymentMethods(await withMerchant(merchantId), methods as PaymentMethod[]),
      };
    }
    case 'set-refund-policy': {
      const merchantId = required(values, 'merchant');
      const policy = required(values, 'policy');
      if (policy !== 'automatic' && policy !== 'manual') throw new UsageError('--policy is automatic or manual');
      return {
        merchant_id: merchantId,
        refund_policy: await setRefundPolicy(await withMerchant(merchantId), policy),
      };
    }
    case 'create-key': {
      const merchantId = required(values, 'merchant');
      const scopes = values.scopes ? list(values.scopes) : [...SCOPES];
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (unknown.length) throw new UsageError(`unknown scopes: ${unknown.join(', ')} (use ${SCOPES.join(', ')})`);
      const name = apiKeyNameInput.safeParse(values.name ?? '');
      if (!name.success) throw new UsageError(`--name: ${name.error.issues[0].message}`);
      const key = await createApiKey(await withMerchant(merchantId), scopes as Scope[], {
        name: name.data,
      });
      return { id: key.id, key: key.key, name: key.name, scopes: key.scopes };
    }
    case 'revoke-key': {
      const id = required(values, 'key-id');
      if (!(await revokeAnyApiKey(await db(), id))) throw new CommandError(`no active key ${id}`);
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
    case 'listen': {
      const forwardTo = required(values, 'forward-to');
      if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol))
        throw new UsageError(`--forward-to must be an http(s) URL, not ${forwardTo}`);
      const types = values.events ? eventTypes(values.events) : undefined;
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      await listen({
        target: target(values),
        forwardTo,
        types,
        signal: stop.signal,
        print: (line) => process.stdout.write(`${values.json ? JSON.stringify(line) : formatListenLine(line)}\n`),
      });
      return undefined;
    }
    case 'trigger': {
      const type = argument!;
      if (!isTriggerable(type)) throw new UsageError(`unknown event type: ${type} (use ${EVENT_TYPES.join(', ')})`);
      return { event_type: type, ...(await trigger(type, target(values), values['return-url'])) };
    }
  }
}

async function main(args: string[]): Promise<number> {
  // looked at before parsing, so that a mistake in the options is answered in JSON too
  const json = args.includes('--json');
  try {
    const { positionals, values } = readOptions(args);
    if (values.help) {
      process.stderr.write(`${USAGE}\n`);
      return 0;
    }
    const { command, argument } = readCommand(positionals, values);
    const result = await run(command, values, argument);
    if (result) process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${formatPlain(result)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
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

process.exitCode = await main(process.argv.slice(2));
