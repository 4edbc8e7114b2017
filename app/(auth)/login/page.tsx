import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/dashboard/login-form';
import { getDashboardSession } from '@/lib/auth/session';
import { safeReturnPath } from '@/lib/dashboard/return-path';

export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await getDashboardSession()) redirect(returnTo);
  return (
    <>
      <h1 className="text-xl font-semibold text-gray-900">Sign in to your dashboard</h1>
      <p className="mt-1 text-sm text-gray-600">Manage keys, approved websites, payments and refunds.</p>
      <LoginForm returnTo={returnTo} initialError={typeof params.error === 'string' ? params.error : undefined} />
      <p className="mt-6 text-center text-sm text-gray-600">
        New here?{' '}
        <Link href="/signup" className="font-medium text-accent-700 hover:underline">
          Create a sandbox account
        </Link>
      </p>
    </>
  );
}
