// A connection's "now": the wall clock plus its test clock's offset (lib/test-clocks). It is read once, where a
// RequestContext is built (lib/core/context.ts: the /v1 wrapper, the dashboard's session, the hosted pages and
// the worker's jobs), and services take it from there. SQL that runs for many merchants at once (the worker's
// queues) adds each row's merchant offset itself (lib/test-clocks/repository.ts, connectionNowSql).

/** Tests only: a process-wide shift of the wall clock, on top of any connection's offset. */
let shiftMs = 0;

/** The time of a connection whose test clock is `offsetSeconds` ahead. */
export function connectionTime(offsetSeconds: number): Date {
  return new Date(Date.now() + shiftMs + offsetSeconds * 1000);
}

/**
 * The real time, for what belongs to no connection and no test clock: when a key was last used or revoked, and
 * the cutoffs of the worker's purges. A service takes a connection's time from its context, never from here.
 */
export function wallClock(): Date {
  return new Date();
}

/** Tests only: shift the clock forward (or back) by ms, for every context built after it. */
export function advanceClock(ms: number): void {
  shiftMs += ms;
}

export function resetClock(): void {
  shiftMs = 0;
}
