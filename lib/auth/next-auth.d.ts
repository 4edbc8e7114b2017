import 'next-auth';
import 'next-auth/jwt';

// What lib/auth/options.ts keeps: the user's id and the session version the cookie was issued under.
declare module 'next-auth' {
  interface Session {
    userId?: string | null;
    sessionVersion?: number | null;
  }
  interface User {
    sessionVersion?: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    sessionVersion?: number;
  }
}
