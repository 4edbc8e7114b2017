#!/usr/bin/env node
// The runnable package's one command (README, "Use it in your CI"), from a tarball `npm pack` made (scripts/package.ts):
//
//   sandbox-payments start [--port P] [--hostname H] [--data-dir D] [--approved-website W]…
//                                                                     the app, as `npm start` runs it
//   sandbox-payments <admin command> [options] [--data-dir D]         the admin CLI (README, "Administration"),
//                                                                     listen and trigger included
//
// Both run with the package's own folder as the working directory, where the built server and the
// migrations are; DATA_DIR is made absolute first, so a relative --data-dir means the caller's folder.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APP_DIR = path.join(PACKAGE_DIR, 'dist', 'app');
const CLI = path.join(PACKAGE_DIR, 'dist', 'cli.mjs');

const USAGE = `usage: sandbox-payments <command> [options]

  start [--port P] [--hostname H] [--data-dir D] [--approved-website W]…
      serve the API, hosted pages and dashboard on http://H:P (default 127.0.0.1:3000; PORT is read too)
      with the worker, on the embedded PostgreSQL under D (default ./.sandbox-payments, or DATA_DIR) unless
      DATABASE_URL is set. SANDBOX_API_KEY chooses the demo merchant's key on the first start. The demo
      merchant approves each website W (host[:port], repeatable; SANDBOX_APPROVED_WEBSITES adds more) on
      every start. Ctrl-C or SIGTERM stops the server and then the embedded database.

  every admin command (sandbox-payments --help-admin lists them), with --data-dir D as for start

  listen --forward-to URL [--events a,b] [--api-key K] [--base-url U]
      forward the account's events, as they happen, to URL, signed with a secret kept between runs
  trigger <event-type> [--api-key K] [--base-url U]
      make the API calls that cause one event, and print the ids made
      (both over HTTP only: --api-key defaults to SANDBOX_API_KEY, --base-url to APP_URL)`;

class UsageError extends Error {}

/** Takes `--name value` or `--name=value` out of args; undefined when absent. */
function takeOption(args, name) {
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index === -1) return undefined;
  const [arg] = args.splice(index, 1);
  if (arg.includes('=')) return arg.slice(arg.indexOf('=') + 1);
  const value = args[index];
  if (value === undefined || value.startsWith('-')) throw new UsageError(`--${name} needs a value`);
  args.splice(index, 1);
  return value;
}

function readPort(raw) {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port must be a TCP port (1-65535), not ${raw}`);
  return port;
}

/**
 * SANDBOX_APPROVED_WEBSITES with every --approved-website taken out of args added to it; the server checks each
 * (lib/merchants/seed.ts) and refuses to start on one that is not a host. Undefined when neither is given.
 */
function approvedWebsites(args) {
  const hosts = [];
  for (let host; (host = takeOption(args, 'approved-website')) !== undefined;) {
    if (!host.trim() || host.includes(','))
      throw new UsageError(`--approved-website takes one host, not ${JSON.stringify(host)}`);
    hosts.push(host);
  }
  const given = [process.env.SANDBOX_APPROVED_WEBSITES, ...hosts].filter(Boolean);
  return given.length ? given.join(',') : undefined;
}

/** The built server in a child process; when it ends, the embedded database it started ends too. */
async function start(args, dataDir) {
  const port = readPort(takeOption(args, 'port') || process.env.PORT || '3000');
  // not HOSTNAME from the environment: many shells and CI runners set it to the machine's name
  const hostname = takeOption(args, 'hostname') || '127.0.0.1';
  const websites = approvedWebsites(args);
  if (args.length) throw new UsageError(`start does not take ${args[0]}`);
  const server = spawn(process.execPath, [path.join(APP_DIR, 'server.js')], {
    cwd: APP_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOSTNAME: hostname,
      DATA_DIR: dataDir,
      ...(websites ? { SANDBOX_APPROVED_WEBSITES: websites } : {}),
    },
    stdio: 'inherit',
  });
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      // passed on once (a terminal's Ctrl-C also reaches the server directly, which is harmless)
      if (stopping) return;
      stopping = true;
      server.kill(signal);
    });
  }
  const code = await new Promise((resolve) =>
    server.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 0 : 1))),
  );
  if (!process.env.DATABASE_URL) await stopDatabase(dataDir);
  return stopping ? 0 : code;
}

async function stopDatabase(dataDir) {
  const stop = spawn(process.execPath, [fileURLToPath(import.meta.url), 'db-stop', '--data-dir', dataDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise((resolve) => stop.on('exit', resolve));
  process.stderr.write(
    code === 0 ? 'sandbox-payments: embedded PostgreSQL stopped\n' : `sandbox-payments: db-stop exited with ${code}\n`,
  );
}

/** The admin CLI (scripts/sandbox.ts, bundled), in this process. */
async function runCli(args, dataDir) {
  process.env.DATA_DIR = dataDir;
  process.env.SANDBOX_CLI_NAME = 'sandbox-payments';
  process.chdir(APP_DIR);
  process.argv = [process.argv[0], CLI, ...args];
  await import(CLI);
  return process.exitCode ?? 0;
}

async function main() {
  const args = process.argv.slice(2);
  const [command] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  const dataDir = path.resolve(takeOption(args, 'data-dir') || process.env.DATA_DIR || '.sandbox-payments');
  if (command === 'start') return start(args.slice(1), dataDir);
  if (command === '--help-admin') return runCli(['--help'], dataDir);
  return runCli(args, dataDir);
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
  process.exitCode = 2;
}
