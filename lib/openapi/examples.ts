import recorded from './examples.json';

// One example answer per operation, for the document's 2xx responses and the "Example response" of /docs.
// They are the server's own answers to the request examples of the operations (order-1001 is paid by
// card, a refund is asked for, a link is sold, a webhook endpoint is set up), recorded into examples.json
// by examples-from-server.test.ts, which fails when the server would now answer otherwise.

export type RecordedExamples = Record<string, unknown>;

/** The base of the URLs in examples.json, replaced by this deployment's. */
export const EXAMPLES_SERVER_URL = 'http://localhost:3000';

/** The ids the request examples use (the refund example names the payment), by prefix. */
export const EXAMPLE_IDS: Record<string, string> = {
  cs: 'cs_4fQ9tLm2Xr7KpV1cN8wZ3bYd',
  ord: 'ord_7Hs2MkQp9Lx4Vt1Wn6Rc3Bza',
  pay: 'pay_8bKpZr2xQmV4tN6sW1yHc0Ld',
  rr: 'rr_2Jw7Nc5Qv9Tx3Lk8Pm1Ry6Hb',
  pl: 'pl_9Tz4Kq1Wm6Vr3Nx8Lc2Hp5Sd',
  we: 'we_5Rn8Vx2Lq7Kt4Wm9Hc1Pz3Fb',
  evt: 'evt_6Mq3Wz8Kr1Tv5Nx2Lp9Hc4Yd',
};

/** The example answer of each operation of API_OPERATIONS, by operationId, with this deployment's URLs. */
export function responseExamples(serverUrl: string): RecordedExamples {
  const base = serverUrl.replace(/\/$/, '');
  return JSON.parse(JSON.stringify(recorded).split(EXAMPLES_SERVER_URL).join(base)) as RecordedExamples;
}
