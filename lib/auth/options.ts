import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { secrets } from '@/lib/secrets';
import { authorizeSignIn, clientAddressFrom, THROTTLED_PREFIX } from './authorize';

// next-auth for the dashboard: e-mail and password (Credentials), sessions as encrypted JWT cookies
// (HttpOnly, SameSite=Lax, Secure when the app is served over https), so web processes share nothing
// but the secret. Built on first use, not at import, so `next build` never reads DATA_DIR.

const SESSION_MAX_AGE_SECONDS = 12 * 3600;

let built: AuthOptions | undefined;

export function authOptions(): AuthOptions {
  if (built) return built;
  // next-auth takes its origin (and whether cookies are Secure) from NEXTAUTH_URL; APP_URL is ours
  process.env.NEXTAUTH_URL ??= env().APP_URL;
  built = {
    secret: secrets().nextAuthSecret,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 3600 },
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'E-mail and password',
        credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, request) {
          const outcome = await authorizeSignIn(await db(), credentials, clientAddressFrom(request?.headers));
          if (outcome.ok) return { id: outcome.user.id, email: outcome.user.email };
          // next-auth hands a thrown message back to the form as `error`; null means wrong credentials
          if (outcome.reason === 'throttled') throw new Error(`${THROTTLED_PREFIX}${outcome.retryAfterSeconds}`);
          return null;
        },
      }),
    ],
    callbacks: {
      // the user id is all the cookie carries; the merchant is read from the database on every request
      session: ({ session, token }) => ({ expires: session.expires, userId: token.sub ?? null }),
      redirect: ({ url, baseUrl }) => sameOriginRedirect(url, baseUrl),
    },
    // next-auth's own messages, without their metadata: that can hold a request body
    logger: {
      error: (code) => log.error('next-auth error', { code }),
      warn: (code) => log.warn('next-auth warning', { code }),
      debug: () => {},
    },
  };
  return built;
}

/**
 * Where next-auth may send someone after signing in or out: a path or an address of our own origin, else
 * home. next-auth's default throws on an address that is not a URL (?callbackUrl=http://host:3000.evil —
 * a 500) and passes //evil.example.com on as a path of ours. Serialized by URL, so no control character
 * reaches a Location header.
 */
export function sameOriginRedirect(url: string, baseUrl: string): string {
  try {
    const base = new URL(baseUrl);
    // a path of ours; never //host or /\host, which a browser reads as another site
    const target = /^\/(?![/\\])/.test(url) ? new URL(url, base) : new URL(url);
    if (target.origin === base.origin) return target.href;
  } catch {
    // not a URL: home
  }
  return baseUrl;
}
