import { afterEach, describe, expect, it } from 'vitest';
import { changeNotices, stopChangeNotices } from './change-notices';

// The listener must come back whenever its database does. The connection string itself may fail: the embedded
// server is stopped, and finding it again throws. That used to be an unhandled rejection that ended the
// reconnects for good, leaving every cache of the process bypassed until it restarted.

afterEach(() => stopChangeNotices());

describe('the change-notice listener', () => {
  it('tries again when its connection string cannot be had, and is current once it can', async () => {
    let attempts = 0;
    const notices = changeNotices(async () => {
      attempts += 1;
      if (attempts <= 2) throw new Error('the embedded PostgreSQL is not running');
      return process.env.DATABASE_URL!;
    });
    notices.subscribe({ changed: () => {}, reset: () => {} });
    await expect.poll(() => notices.isCurrent(), { timeout: 5_000 }).toBe(true);
    expect(attempts).toBe(3);
  });
});
