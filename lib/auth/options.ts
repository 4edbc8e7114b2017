import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { secrets } from '@/lib/secrets';
import { clientAddressOf } from '@/lib/server/client-address';
import { endSessions } from '@/lib/users/service';
import { authorizeSignIn, THROTTLED_PREFIX } from './authorize';
import { isCurrentSession } from './session-user';

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
          const outcome = await authorizeSignIn(await db(), credentials, clientAddressOf(request?.headers));
          if (outcome.ok)
            return { id: outcome.user.id, email: outcome.user.email, sessionVersion: outcome.user.sessionVersion };
          // next-auth hands a thrown message back to the form as `error`; null means wrong credentials
          if (outcome.reason === 'throttled') throw new Error(`${THROTTLED_PREFIX}${outcome.retryAfterSeconds}`);
          return null;
        },
      }),
    ],
    callbacks: {
      // the cookie carries the user id and the session version it was issued under; the merchant and the
      // current version are read from the database on every request (lib/auth/session-user.ts), so a cookie
      // from before its user signed out names nobody, on /api/auth/session as on the pages
      jwt: ({ token, user }) => (user ? { ...token, sessionVersion: user.sessionVersion ?? 0 } : token),
      session: async ({ session, token }) => {
        const current = await isCurrentSession(token.sub, token.sessionVersion);
        return {
          expires: session.expires,
          userId: current ? token.sub! : null,
          sessionVersion: current ? (token.sessionVersion ?? null) : null,
        };
      },
      redirect: ({ url, baseUrl }) => sameOriginRedirect(url, baseUrl),
    },
    events: {
      // signing out ends every session of the user, not just this browser's cookie: a copied cookie stops too
      signOut: async ({ token }) => {
        if (token?.sub && typeof token.sessionVersion === 'number')
          await endSessions(await db(), token.sub, token.sessionVersion);
      },
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
