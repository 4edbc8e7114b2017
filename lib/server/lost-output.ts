// A process started with its output on a pipe (by Playwright's webServer, a test runner, a process manager)
// outlives whoever read that pipe when they are killed. Its next write then fails with EPIPE, which the
// stream reports as an 'error' event; unheard, that is an uncaught exception, which Next.js logs to the same
// stream, whose write fails again: a loop that held half a core for half an hour, left requests unanswered
// and SIGTERM unheeded (test/scale/database-lost.test.ts). Heard here, what cannot be written is dropped,
// and the process serves on.

const globalForOutput = globalThis as unknown as { sandboxLostOutputHeard?: boolean };

export function dropOutputNoOneReads(): void {
  if (globalForOutput.sandboxLostOutputHeard) return;
  globalForOutput.sandboxLostOutputHeard = true;
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}
