import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/options';

// GET, POST /api/auth/* – next-auth: CSRF token, credentials sign-in, session, sign-out
type Context = { params: Promise<{ nextauth: string[] }> };

function handler(request: Request, context: Context) {
  return NextAuth(request as never, context, authOptions());
}

export { handler as GET, handler as POST };
