'use client';

import { useEffect, useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { cardBrand, normalizeCardNumber } from '@/lib/payments/cards';
import { cardFormErrors, cvcLength, hasErrors, type CardFields, type FieldErrors } from '@/lib/payments/hosted-form';
import { BrandMark } from './brand-mark';
import { caretAfterDigits, formatCardNumber, formatExpiry } from './card-number';
import type { CheckEmail, PayWith } from './payment-types';
import { TestCardsHint } from './test-cards-hint';

const DECLINE_ID = 'card-decline';
const EMPTY: CardFields = { number: '', expiry: '', cvc: '', name: '' };
const FIELD_ORDER: Array<keyof CardFields> = ['number', 'expiry', 'cvc', 'name'];
const INPUT_IDS: Record<keyof CardFields, string> = {
  number: 'card-number',
  expiry: 'card-expiry',
  cvc: 'card-cvc',
  name: 'card-name',
};

/** A field's input, found when an effect needs it (to focus it, or to put the caret back). */
function inputOf(field: keyof CardFields): HTMLInputElement | null {
  return document.getElementById(INPUT_IDS[field]) as HTMLInputElement | null;
}

export function CardForm({
  totalLabel,
  pay,
  checkEmail,
  busy,
  pending,
}: {
  totalLabel: string;
  pay: PayWith;
  checkEmail: CheckEmail;
  busy: boolean;
  pending: boolean;
}) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<CardFields>>({});
  const [decline, setDecline] = useState<string | null>(null);
  const caret = useRef<number | null>(null);
  // the first wrong field takes the focus once rendered (the inputs are disabled while the server answers)
  const [focusRequest, setFocusRequest] = useState<{ field: keyof CardFields } | null>(null);
  const brand = cardBrand(normalizeCardNumber(fields.number));

  // put the caret back where the customer was typing after the number is regrouped
  useLayoutEffect(() => {
    if (caret.current === null) return;
    inputOf('number')?.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [fields.number]);

  useEffect(() => {
    if (focusRequest) inputOf(focusRequest.field)?.focus();
  }, [focusRequest]);

  /** `focus`: false when a field above the card's (the e-mail) has taken the focus already. */
  function showErrors(found: FieldErrors<CardFields>, focus = true) {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first && focus) setFocusRequest({ field: first });
  }

  function update(field: keyof CardFields, value: string) {
    const next = { ...fields, [field]: value };
    setFields(next);
    if (field === 'number') setDecline(null);
    // a field marked wrong is checked again as it changes, so the message goes away once it is right
    if (errors[field]) setErrors({ ...errors, [field]: cardFormErrors(next, new Date())[field] });
  }

  function onNumberChange(event: ChangeEvent<HTMLInputElement>) {
    const { value, selectionStart } = event.target;
    const digitsBeforeCaret = value.slice(0, selectionStart ?? value.length).replace(/\D/g, '').length;
    const formatted = formatCardNumber(value);
    caret.current = caretAfterDigits(formatted, digitsBeforeCaret);
    update('number', formatted);
  }

  /** Leaving a field with something in it checks it; an empty field waits for the Pay click. */
  function onBlur(field: keyof CardFields) {
    if (!fields[field].trim()) return;
    setErrors({ ...errors, [field]: cardFormErrors(fields, new Date())[field] });
  }

  function fillTestCard(number: string) {
    const nextYear = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');
    setFields({
      number: formatCardNumber(number),
      expiry: fields.expiry || `12 / ${nextYear}`,
      cvc: fields.cvc || '123',
      name: fields.name || 'Sandbox Customer',
    });
    setErrors({});
    setDecline(null);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const emailFine = checkEmail('card');
    const found = cardFormErrors(fields, new Date());
    showErrors(found, emailFine);
    setDecline(null);
    if (hasErrors(found) || !emailFine) return;
    const outcome = await pay({ method: 'card', card: fields }, 'card');
    if (outcome?.kind === 'failed') {
      setDecline(outcome.message);
      // the button was disabled while waiting, which dropped the focus; try another card from the number
      setFocusRequest({ field: 'number' });
    }
    if (outcome?.kind === 'invalid') showErrors(outcome.errors);
  }

  const bind = (field: keyof CardFields) => ({
    id: INPUT_IDS[field],
    value: fields[field],
    error: errors[field],
    onBlur: () => onBlur(field),
    disabled: busy,
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Pay by card">
      <TextField
        label="Card number"
        name="cardnumber"
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="1234 1234 1234 1234"
        {...bind('number')}
        aria-describedby={decline ? DECLINE_ID : undefined}
        onChange={onNumberChange}
        end={<BrandMark brand={brand} />}
      />
      {/* under the number it is about, where the focus goes to try another card; an alert, so it is heard */}
      {decline && (
        <Notice tone="danger" id={DECLINE_ID}>
          {decline}
        </Notice>
      )}
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Expiry (MM / YY)"
          name="cc-exp"
          autoComplete="cc-exp"
          inputMode="numeric"
          placeholder="MM / YY"
          {...bind('expiry')}
          onChange={(event) => update('expiry', formatExpiry(event.target.value))}
        />
        <TextField
          label="CVC"
          name="cvc"
          autoComplete="cc-csc"
          inputMode="numeric"
          placeholder={cvcLength(fields.number) === 4 ? '1234' : '123'}
          maxLength={4}
          {...bind('cvc')}
          onChange={(event) => update('cvc', event.target.value.replace(/\D/g, ''))}
        />
      </div>
      <TextField
        label="Name on card"
        name="ccname"
        autoComplete="cc-name"
        placeholder="Full name as printed"
        {...bind('name')}
        onChange={(event) => update('name', event.target.value)}
      />
      <TestCardsHint onUse={fillTestCard} disabled={busy} />
      <Button type="submit" size="lg" className="w-full" pending={pending} pendingLabel="Processing…" disabled={busy}>
        Pay {totalLabel}
      </Button>
    </form>
  );
}
