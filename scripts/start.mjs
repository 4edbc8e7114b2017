// `npm start`: `next start` with its own options (-p, -H…), and --approved-website H (repeatable), which adds H
// to SANDBOX_APPROVED_WEBSITES, the hosts the demo merchant approves on every start (lib/merchants/seed.ts checks
// them), as `sandbox-payments start` takes it. Next runs in this process: signals and the exit code are its own.
import { createRequire } from 'node:module';

const OPTION = '--approved-website';
const hosts = [];
const nextArgs = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === OPTION) hosts.push(args[++i] ?? '');
  else if (args[i].startsWith(`${OPTION}=`)) hosts.push(args[i].slice(OPTION.length + 1));
  else nextArgs.push(args[i]);
}
if (hosts.some((host) => !host.trim() || host.startsWith('-'))) {
  process.stderr.write(`error: ${OPTION} needs a host (host[:port]) after it\n`);
  process.exit(2);
}
const websites = [process.env.SANDBOX_APPROVED_WEBSITES, ...hosts].filter(Boolean);
if (websites.length) process.env.SANDBOX_APPROVED_WEBSITES = websites.join(',');

const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
process.argv = [process.argv[0], next, 'start', ...nextArgs];
await import(next);
