import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignUpForm } from '@/components/dashboard/sign-up-form';
import { getDashboardSession } from '@/lib/auth/session';
import { MIN_PASSWORD_LENGTH } from '@/lib/auth/sign-up';
import { signUpAction } from './actions';

export const metadata: Metadata = { title: 'Create an account' };

export default async function SignUpPage() {
  if (await getDashboardSession()) redirect('/dashboard');
  return (
    <>
      <h1 className="text-xl font-semibold text-gray-900">Create a sandbox account</h1>
      <p className="mt-1 text-sm text-gray-600">
        Test checkout, refunds and webhooks end to end. Everything is simulated: no money moves.
      </p>
      <SignUpForm action={signUpAction} minPasswordLength={MIN_PASSWORD_LENGTH} />
      <p className="mt-6 text-center text-sm text-gray-600">
        Already have an account?{' '}
        <Link href="/login" className="font-medium text-accent-700 hover:underline">
          Sign in
        </Link>
      </p>
    </>
  );
}
