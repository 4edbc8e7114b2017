import 'next-auth';

// What our session callback (lib/auth/options.ts) puts in the session: the signed-in user's id.
declare module 'next-auth' {
  interface Session {
    userId?: string | null;
  }
}
