'use client';

import { useState } from 'react';
import { submitKeepingValues, useFieldErrors, useFormAction } from '@/components/dashboard/use-form-action';
import { Button } from '@/components/ui/button';
import { Choice } from '@/components/ui/checkbox';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { TextAreaField } from '@/components/ui/textarea-field';
import { AmountField } from '@/components/dashboard/amount-understood';
import { QuantityFields } from './quantity-fields';
import type { FormState } from '@/lib/dashboard/form-state';
import type { PaymentLinkField } from '@/lib/payment-links/dashboard-form';

type Method = 'card' | 'usdc' | 'interac';
type Currency = 'CAD' | 'USD';
type CreateAction = (state: FormState<PaymentLinkField>, form: FormData) => Promise<FormState<PaymentLinkField>>;

const METHOD_LABELS: Record<Method, string> = { card: 'Card', usdc: 'USDC', interac: 'Interac e-Transfer' };
// for the hints only; the server holds the rule (interac serves CAD only, usdc USD only)
const ONLY_CURRENCY: Partial<Record<Method, Currency>> = { usdc: 'USD', interac: 'CAD' };
const takes = (method: Method, currency: Currency) => !ONLY_CURRENCY[method] || ONLY_CURRENCY[method] === currency;

/**
 * A new payment link. Every input is controlled, so a refusal from the server keeps what was typed; the
 * server checks everything again with the API's rules.
 */
export function PaymentLinkForm({
  action,
  approvedMethods,
  approvedHosts,
}: {
  action: CreateAction;
  approvedMethods: Method[];
  approvedHosts: string[];
}) {
  const [state, formAction, pending] = useFormAction(action);
  const [values, setValues] = useState({
    name: '',
    description: '',
    amount: '',
    afterPaymentUrl: '',
  });
  const [currency, setCurrency] = useState<Currency>('USD');
  const [choice, setChoice] = useState<'auto' | 'choose'>('auto');
  // starts with the account's methods ticked: choosing is taking some away, and saving at once works
  const [methods, setMethods] = useState<Method[]>(approvedMethods);
  const { errorOf, markEdited } = useFieldErrors(state);
  const set =
    (name: 'name' | 'description' | 'amount' | 'afterPaymentUrl') => (event: { target: { value: string } }) => {
      markEdited(name);
      setValues((current) => ({ ...current, [name]: event.target.value }));
    };
  const automatic = approvedMethods.filter((method) => takes(method, currency));

  return (
    // noValidate: the server checks every field at once and says so beside each; the browser's bubbles name one at a time
    <form action={formAction} onSubmit={submitKeepingValues(formAction)} noValidate className="space-y-5">
      {state.status === 'error' && state.message && <Notice tone="danger">{state.message}</Notice>}
      <TextField
        id="link-name"
        name="name"
        label="Name"
        required
        maxLength={200}
        value={values.name}
        onChange={set('name')}
        error={errorOf('name')}
        hint="What the customer pays for, e.g. “Yoga class – drop-in”."
      />
      <TextAreaField
        id="link-description"
        name="description"
        label="Description (optional)"
        maxLength={1000}
        value={values.description}
        onChange={set('description')}
        error={errorOf('description')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountField
          id="link-amount"
          label="Price"
          placeholder="25.00"
          currency={currency}
          value={values.amount}
          onChange={set('amount')}
          error={errorOf('amount')}
        />
        <SelectField
          id="link-currency"
          name="currency"
          label="Currency"
          value={currency}
          onChange={(event) => {
            markEdited('currency');
            setCurrency(event.target.value as Currency);
          }}
          error={errorOf('currency')}
        >
          <option value="USD">USD – US dollar</option>
          <option value="CAD">CAD – Canadian dollar</option>
        </SelectField>
      </div>

      <fieldset
        aria-describedby={errorOf('paymentMethods') ? 'link-methods-error' : undefined}
        onChange={() => markEdited('paymentMethods')}
      >
        <legend className="text-sm font-medium text-gray-700">Payment methods</legend>
        <div className="mt-2 space-y-3">
          <Choice
            type="radio"
            name="methodChoice"
            value="auto"
            checked={choice === 'auto'}
            onChange={() => setChoice('auto')}
            label={`Every approved method that takes ${currency}`}
            description={
              automatic.length > 0
                ? `Now: ${automatic.map((method) => METHOD_LABELS[method]).join(', ')}. Follows your account’s methods if they change.`
                : `None of your approved methods takes ${currency} yet.`
            }
          />
          <Choice
            type="radio"
            name="methodChoice"
            value="choose"
            checked={choice === 'choose'}
            onChange={() => setChoice('choose')}
            label="Only the methods I choose"
          />
          {choice === 'choose' && (
            <div className="space-y-2 pl-7">
              {(['card', 'usdc', 'interac'] as const).map((method) => {
                const approved = approvedMethods.includes(method);
                const servesCurrency = takes(method, currency);
                return (
                  <Choice
                    key={method}
                    name="paymentMethods"
                    value={method}
                    disabled={!approved || !servesCurrency}
                    checked={methods.includes(method) && approved && servesCurrency}
                    onChange={(event) =>
                      setMethods((current) =>
                        event.target.checked ? [...current, method] : current.filter((m) => m !== method),
                      )
                    }
                    label={METHOD_LABELS[method]}
                    description={
                      !approved
                        ? 'Not approved for your account'
                        : !servesCurrency
                          ? `Takes ${ONLY_CURRENCY[method]} only`
                          : undefined
                    }
                  />
                );
              })}
            </div>
          )}
        </div>
        {errorOf('paymentMethods') && (
          <p id="link-methods-error" className="mt-2 text-sm text-red-700">
            {errorOf('paymentMethods')}
          </p>
        )}
      </fieldset>

      <QuantityFields
        idPrefix="link"
        initial={{ adjustable: false, minimum: 1, maximum: 10 }}
        onEdit={() => markEdited('quantity')}
        error={errorOf('quantity')}
      />

      <TextField
        id="link-after-payment"
        name="afterPaymentUrl"
        label="After payment, send customers to (optional)"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder={approvedHosts[0] ? `https://${approvedHosts[0]}/thanks` : 'https://'}
        value={values.afterPaymentUrl}
        onChange={set('afterPaymentUrl')}
        error={errorOf('afterPaymentUrl')}
        hint={
          approvedHosts.length > 0
            ? `A page on one of your approved websites (${approvedHosts.join(', ')}). Leave it empty to show our receipt page.`
            : 'You have no approved websites yet, so customers see our receipt page after paying.'
        }
        disabled={approvedHosts.length === 0}
      />

      <Button type="submit" pending={pending} pendingLabel="Creating link…">
        Create payment link
      </Button>
    </form>
  );
}
