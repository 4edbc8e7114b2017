import { expect, it } from 'vitest';
import { db } from '@/lib/db';
import { seedDemo } from '@/lib/merchants/seed';
import { authorizeSignIn } from './authorize';

// Its own file, so its database is empty as on a first start.
it('the demo user seeded on first start signs in with the password printed then', async () => {
  const client = await db();
  const seeded = await seedDemo(client);
  expect(seeded.created).toBe(true);
  const outcome = await authorizeSignIn(client, { email: seeded.email, password: seeded.password }, null);
  expect(outcome).toMatchObject({ ok: true, user: { email: 'demo@example.com', merchantId: seeded.merchant_id } });
});
