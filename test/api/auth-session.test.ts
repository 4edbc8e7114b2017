import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db';
import { createUser } from '@/lib/users/service';
import { createFixtureMerchant } from './properties-support';

// next-auth's session endpoint answers from the cookie alone unless told otherwise: a cookie copied before
// its user signed out would still read as signed in there, while every page refuses it.

const PASSWORD = 'correct horse battery staple';
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookiesOf(csrf) },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: 'true' }),
    redirect: 'manual',
  });
  return `${cookiesOf(csrf)}; ${cookiesOf(response)}`;
}

describe('/api/auth/session', () => {
  it('names nobody for a cookie its user has signed out of, as the pages do', async () => {
    const base = inject('serverUrl');
    const shop = await createFixtureMerchant({ name: 'Session Shop' });
    const email = `session-${randomUUID()}@example.com`;
    await createUser(await db(), { merchantId: shop.merchantId, email, password: PASSWORD });
    const copied = await signIn(base, email);
    const session = async () => (await fetch(`${base}/api/auth/session`, { headers: { Cookie: copied } })).json();
    expect(await session()).toMatchObject({ userId: expect.any(String) });

    // signing out in another browser ends every session of the user
    const other = await signIn(base, email);
    const { csrfToken } = (await (await fetch(`${base}/api/auth/csrf`, { headers: { Cookie: other } })).json()) as {
      csrfToken: string;
    };
    await fetch(`${base}/api/auth/signout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: other },
      body: new URLSearchParams({ csrfToken, json: 'true' }),
      redirect: 'manual',
    });

    expect((await session()).userId ?? null).toBeNull();
    const page = await fetch(`${base}/dashboard`, { headers: { Cookie: copied }, redirect: 'manual' });
    expect(page.status).toBe(307);
  });
});
