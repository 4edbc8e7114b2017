import { vi } from 'vitest';

// The services' and the API's files share their workers (`isolate: false`, vitest.config.mts): a worker
// starts once and imports what node_modules holds once, where isolated files each paid for both (the services'
// files took half the CPU this way). What one file leaves behind must not reach the next, so each file starts
// with our modules evaluated anew, and ends with the process's environment as it found it and with what our
// modules kept on globalThis stopped and dropped: they keep their state there, to outlive the reloads of
// Next's development server.

/** Kept: each records something done to the process itself, which dropping the record would do twice. */
const PROCESS_WIDE = new Set([
  'sandboxStartedClusters', // the embedded clusters this process started (lib/db/embedded.ts)
  'sandboxLostOutputHeard', // listeners on stdout and stderr (lib/server/lost-output.ts)
  'sandboxRoundTripsPatched', // pg's query methods, patched once (lib/db/round-trips.ts)
  'sandboxMethodGuard', // the HTTP servers already guarded (lib/server/http-methods.ts)
]);

let environment: Record<string, string | undefined> = {};

/** Before a file: its imports of our code are evaluated anew, not taken from the file before. */
export function startFile(): void {
  vi.resetModules();
  environment = { ...process.env };
}

/**
 * After a file: its database connections closed, real timers, the variables it set or removed as they were,
 * and what our modules kept on globalThis stopped and dropped. (Vitest itself restores the file's mocks.)
 */
export async function endFile(): Promise<void> {
  const { disconnect } = await import('@/lib/db');
  await disconnect();
  vi.useRealTimers();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  // a kept thing that runs on its own (the rate limits' settlements, a worker) has a stop()
  const state = globalThis as unknown as Record<string, { stop?: () => unknown } | undefined>;
  for (const name of Object.keys(state)) {
    if (!name.startsWith('sandbox') || PROCESS_WIDE.has(name)) continue;
    await state[name]?.stop?.();
    delete state[name];
  }
}
