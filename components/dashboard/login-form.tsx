'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';

const THROTTLED_PREFIX = 'throttled:';

/** What next-auth's error codes mean to the person at the form. */
export function describeSignInError(code: string): string {
  if (code.startsWith(THROTTLED_PREFIX)) {
    const minutes = Math.max(1, Math.ceil(Number(code.slice(THROTTLED_PREFIX.length)) / 60));
    return `Too many sign-in attempts. For your security, wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
  }
  if (code === 'CredentialsSignin') return 'That e-mail and password do not match an account.';
  if (code === 'SessionRequired') return 'Sign in to continue.';
  return 'We could not sign you in. Try again.';
}

export function LoginForm({ returnTo, initialError }: { returnTo: string; initialError?: string }) {
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(initialError ? describeSignInError(initialError) : null);
  const [pending, setPending] = useState(false);
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const empty = {
      ...(email.trim() ? {} : { email: 'Enter your e-mail.' }),
      ...(password ? {} : { password: 'Enter your password.' }),
    };
    setMissing(empty);
    if (empty.email || empty.password) return;
    setPending(true);
    setError(null);
    try {
      const result = await signIn('credentials', { email, password, redirect: false });
      if (result?.ok && !result.error) {
        router.replace(returnTo);
        router.refresh();
        return;
      }
      setError(describeSignInError(result?.error ?? 'unknown'));
      setPassword('');
    } catch {
      setError('We could not reach the server. Check your connection and try again.');
    }
    setPending(false);
  }

  return (
    // noValidate: an empty field is said beside it, as on every other form, not in the browser's bubble
    <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
      {error && <Notice tone="danger">{error}</Notice>}
      <TextField
        id="email"
        label="E-mail"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setMissing(({ password }) => ({ password }));
        }}
        error={missing.email}
      />
      <TextField
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setMissing(({ email }) => ({ email }));
        }}
        error={missing.password}
      />
      <Button type="submit" size="lg" className="w-full" pending={pending} pendingLabel="Signing in…">
        Sign in
      </Button>
    </form>
  );
}
