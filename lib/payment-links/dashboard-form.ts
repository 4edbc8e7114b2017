import type { z } from 'zod';
import { AMOUNT_FORMAT, readMajorAmount } from '@/lib/dashboard/amount-input';
import { refused, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';
import type { RequestContext } from '@/lib/core/context';
import type { PaymentLink } from '@/lib/generated/prisma/client';
import { formatMoney } from '@/lib/core/money';
import { createPaymentLinkInput, updatePaymentLinkWithPriceInput } from './schemas';
import { createPaymentLink, getPaymentLinkOrThrow, updatePaymentLink } from './service';

// The dashboard's payment link forms keep the API's rules by going through the same schemas and service
// as /v1/payment-links; this file turns typing into that input, and puts the service's refusals by the field.

export type PaymentLinkField =
  'name' | 'description' | 'amount' | 'currency' | 'paymentMethods' | 'afterPaymentUrl' | 'quantity';

export type PaymentLinkFormInput = {
  name: string;
  description: string;
  /** major units as typed: "25", "25.00", "1,250.5" */
  amount: string;
  currency: string;
  /** null: every approved method that takes the currency */
  paymentMethods: string[] | null;
  afterPaymentUrl: string;
  /** adjustable_quantity as typed, or null for a quantity of one */
  quantity?: { minimum: string; maximum: string } | null;
};

/** The edit form of a link's page: its words, its price (in the link's currency) and the quantities offered. */
export type PaymentLinkEditInput = {
  name: string;
  description: string;
  /** major units as typed, read as on the new link's form */
  amount: string;
  quantity: { minimum: string; maximum: string } | null;
};

const PARAM_FIELDS: Record<string, PaymentLinkField> = {
  name: 'name',
  description: 'description',
  amount: 'amount',
  currency: 'currency',
  payment_methods: 'paymentMethods',
  after_payment_url: 'afterPaymentUrl',
  adjustable_quantity: 'quantity',
};

const INVALID: Record<PaymentLinkField, string> = {
  name: 'Enter a name of up to 200 characters.',
  description: 'Keep the description under 1,000 characters.',
  amount: 'Enter a price like 25.00 (at most 999,999.99).',
  currency: 'Choose CAD or USD.',
  paymentMethods: 'Choose at least one way to pay.',
  afterPaymentUrl: 'Enter a full web address that starts with https:// or http://.',
  quantity: 'Enter whole numbers from 1 to 10,000, the least first.',
};

export async function createPaymentLinkFromForm(
  context: RequestContext,
  form: PaymentLinkFormInput,
): Promise<{ link: PaymentLink } | { state: FormState<PaymentLinkField> }> {
  // an unreadable price goes to the schema as null, which refuses it beside every other field's problem, and
  // is said in the reader's words ("“1,500” could be 1500 or 1.500: …")
  const price = readMajorAmount(form.amount, form.currency);
  const parsed = createPaymentLinkInput.safeParse({
    name: form.name,
    amount: 'amount' in price ? price.amount : null,
    currency: form.currency,
    description: form.description.trim() || null,
    ...(form.paymentMethods ? { payment_methods: form.paymentMethods } : {}),
    after_payment_url: form.afterPaymentUrl.trim() || null,
    ...(form.quantity ? { adjustable_quantity: quantityInput(form.quantity) } : {}),
  });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    // a price that is no amount at all gets the form's own example; an ambiguous or too large one its reason
    if ('error' in price && price.error !== AMOUNT_FORMAT) errors.amount = price.error;
    return { state: refused(errors) };
  }
  try {
    return { link: await createPaymentLink(context, parsed.data) };
  } catch (error) {
    return { state: toFormState(error, PARAM_FIELDS) };
  }
}

/**
 * Saves the edit form. A price that differs from the link's is its new price (the form asked the merchant to
 * confirm it first): customers who open the link from now on pay it, checkouts already started keep theirs.
 */
export async function updatePaymentLinkFromForm(
  context: RequestContext,
  linkId: string,
  form: PaymentLinkEditInput,
): Promise<FormState<PaymentLinkField>> {
  let link: PaymentLink;
  try {
    link = await getPaymentLinkOrThrow(context, linkId);
  } catch (error) {
    return toFormState(error, PARAM_FIELDS);
  }
  const price = readMajorAmount(form.amount, link.currency);
  const newPrice = 'amount' in price && price.amount !== link.amount ? price.amount : undefined;
  const parsed = updatePaymentLinkWithPriceInput.safeParse({
    name: form.name,
    description: form.description.trim() || null,
    // an unreadable price goes as null, which the schema refuses beside the other fields' problems
    ...('amount' in price ? { amount: newPrice } : { amount: null }),
    adjustable_quantity: form.quantity ? quantityInput(form.quantity) : { enabled: false },
  });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    if ('error' in price && price.error !== AMOUNT_FORMAT) errors.amount = price.error;
    return refused(errors);
  }
  try {
    await updatePaymentLink(context, linkId, parsed.data);
  } catch (error) {
    return toFormState(error, PARAM_FIELDS);
  }
  if (newPrice === undefined) return { status: 'ok', message: 'Saved. Customers see the changes at once.' };
  const before = formatMoney(link.amount, link.currency);
  return {
    status: 'ok',
    message: `Saved. Customers who open the link from now on pay ${formatMoney(newPrice, link.currency)}; checkouts already started keep ${before}.`,
  };
}

/** Turns a link off (customers are told it is no longer available) or back on. */
export async function setPaymentLinkActive(
  context: RequestContext,
  linkId: string,
  active: boolean,
): Promise<FormState> {
  try {
    const link = await updatePaymentLink(context, linkId, { active });
    return {
      status: 'ok',
      message: active
        ? `${link.name} takes payments again.`
        : `${link.name} is deactivated; its page says it is no longer available.`,
    };
  } catch (error) {
    return toFormState(error, PARAM_FIELDS);
  }
}

/** The quantity range as typed, as adjustable_quantity; an unreadable number goes as null, which is refused. */
function quantityInput(typed: { minimum: string; maximum: string }) {
  return { enabled: true, minimum: wholeNumber(typed.minimum), maximum: wholeNumber(typed.maximum) };
}

/** "3" → 3; anything else goes to the schema as null, which refuses it. */
function wholeNumber(typed: string): number | null {
  return /^\s*\d{1,6}\s*$/.test(typed) ? Number(typed) : null;
}

function fieldErrorsOf(error: z.ZodError): Partial<Record<PaymentLinkField, string>> {
  const errors: Partial<Record<PaymentLinkField, string>> = {};
  for (const issue of error.issues) {
    const field = PARAM_FIELDS[String(issue.path[0])] ?? 'name';
    errors[field] ??= INVALID[field];
  }
  return errors;
}
