'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/dashboard/form-state';

type SignUpField = 'businessName' | 'email' | 'password';

export function SignUpForm({
  action,
  minPasswordLength,
}: {
  action: (form: FormData) => Promise<FormState<SignUpField>>;
  minPasswordLength: number;
}) {
  const router = useRouter();
  const [values, setValues] = useState({ businessName: '', email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<SignUpField, string>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const set = (name: SignUpField) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value }));
    // the error spoke of what was sent; the field now says something else
    setErrors(({ [name]: _answered, ...others }) => others);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setNotice(null);
    try {
      const form = new FormData();
      for (const [name, value] of Object.entries(values)) form.set(name, value);
      const outcome = await action(form);
      if (outcome.status === 'error') {
        setErrors(outcome.fieldErrors ?? {});
        if (outcome.message) setNotice(outcome.message);
        setPending(false);
        return;
      }
      setErrors({});
      const signedIn = await signIn('credentials', { email: values.email, password: values.password, redirect: false });
      if (!signedIn?.ok || signedIn.error) {
        // the account exists; only the automatic sign-in failed
        router.replace('/login');
        return;
      }
      router.replace('/dashboard');
      router.refresh();
    } catch {
      setNotice('We could not reach the server. Check your connection and try again.');
      setPending(false);
    }
  }

  return (
    // noValidate: the server checks every field at once and answers beside each; the browser's bubbles name one at a time
    <form onSubmit={submit} noValidate className="mt-6 space-y-4">
      {notice && <Notice tone="danger">{notice}</Notice>}
      <TextField
        id="businessName"
        label="Business name"
        autoComplete="organization"
        required
        maxLength={100}
        value={values.businessName}
        onChange={set('businessName')}
        error={errors.businessName}
        hint="Shown to customers on your hosted checkout page."
      />
      <TextField
        id="email"
        label="E-mail"
        type="email"
        autoComplete="email"
        required
        value={values.email}
        onChange={set('email')}
        error={errors.email}
      />
      <TextField
        id="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        value={values.password}
        onChange={set('password')}
        error={errors.password}
        hint={`At least ${minPasswordLength} characters.`}
      />
      <Button type="submit" size="lg" className="w-full" pending={pending} pendingLabel="Creating your account…">
        Create account
      </Button>
    </form>
  );
}
