import { AsyncLocalStorage } from 'node:async_hooks';

// The one source of "now" in the services. Inside work done for a connection (an API request, a hosted
// page, a dashboard page) it is that connection's time: the wall clock plus its test clock's offset
// (lib/test-clocks). SQL that runs outside such work (the worker's queues) adds each row's
// merchant offset itself (lib/test-clocks/repository.ts, connectionNowSql).

/** Tests only: a process-wide shift, on top of any connection's offset. */
let offsetMs = 0;

const connectionOffsetMs = new AsyncLocalStorage<number>();

export function now(): Date {
  return new Date(Date.now() + offsetMs + (connectionOffsetMs.getStore() ?? 0));
}

/** Runs `work` on the connection's clock: every now() inside it is the wall clock plus offsetSeconds. */
export function onConnectionClock<T>(offsetSeconds: number, work: () => T): T {
  // no test clock (nearly every request): now() is the wall clock already, without a context to carry
  if (offsetSeconds === 0 && connectionOffsetMs.getStore() === undefined) return work();
  return connectionOffsetMs.run(offsetSeconds * 1000, work);
}

/** Tests only: shift the clock forward (or back) by ms. */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
