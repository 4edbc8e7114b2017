import { errors } from '@/lib/core/errors';
import { METADATA_MAX_KEYS, metadataChanges, withoutEmptyValues } from '@/lib/core/metadata';
import { type Claimed, type ClaimKey, settleClaim } from '@/lib/idempotency/service';
import { paginate } from '@/lib/core/pagination';
import { choosePaymentMethods } from '@/lib/checkout-sessions/service';
import type { RequestContext } from '@/lib/core/context';
import type { PaymentLink } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/core/ids';
import { MAX_AMOUNT } from '@/lib/core/money';
import { hostOfUrl } from '@/lib/merchants/hosts';
import { merchantRules, type MerchantRules } from '@/lib/merchants/settings';
import {
  findPaymentLink,
  findPaymentLinkCursor,
  findPaymentLinksPage,
  insertPaymentLink,
  insertPaymentLinkClaimingKey,
  updatePaymentLinkById,
  updatePaymentLinkClaimingKey,
  METADATA_IN_ANSWER,
  type NewPaymentLink,
  type PaymentLinkChanges,
  type UpdateRefusal,
} from './repository';
import type { AdjustableQuantityInput, CreatePaymentLinkInput, UpdatePaymentLinkWithPriceInput } from './schemas';

// Payment links of a merchant: made and changed by the API and the dashboard, both through here.

/** With `claimKey`, the request's Idempotency-Key is claimed by the write: a replay when another request holds it. */
type KeyOption = { claimKey?: ClaimKey<PaymentLink> };

/**
 * Takes the rules of a checkout session that a link can break before anyone pays: the methods must be
 * approved and take the currency, and the after-payment URL must be on an approved website (exact host).
 * An explicit method list is kept as given; no list means "every approved method that takes the currency",
 * decided each time a customer pays, so the link follows later changes to the merchant's methods.
 */
export function createPaymentLink(context: RequestContext, input: CreatePaymentLinkInput): Promise<PaymentLink>;
export function createPaymentLink(
  context: RequestContext,
  input: CreatePaymentLinkInput,
  options: KeyOption,
): Promise<Claimed<PaymentLink>>;
export async function createPaymentLink(
  context: RequestContext,
  input: CreatePaymentLinkInput,
  options: KeyOption = {},
): Promise<Claimed<PaymentLink>> {
  const { db: database, merchantId, now: at } = context;
  const merchant = await merchantRules(database, merchantId);
  if (input.after_payment_url) requireApprovedWebsite(merchant, input.after_payment_url, 'after_payment_url');
  choosePaymentMethods(merchant.paymentMethods, input.currency, input.payment_methods);
  const quantity = quantityRange(input.adjustable_quantity);
  if (quantity.quantityMaximum !== null && input.amount * quantity.quantityMaximum > MAX_AMOUNT)
    throw tooLargeForOnePayment('adjustable_quantity.maximum');
  const link: NewPaymentLink = {
    id: newId('paymentLink'),
    merchantId,
    name: input.name,
    description: input.description || null,
    amount: input.amount,
    currency: input.currency,
    paymentMethods: input.payment_methods ?? [],
    afterPaymentUrl: input.after_payment_url ? withLowercaseScheme(input.after_payment_url) : null,
    active: input.active,
    metadata: withoutEmptyValues(input.metadata),
    ...quantity,
    createdAt: at,
    updatedAt: at,
  };
  if (!options.claimKey) return insertPaymentLink(database, link);
  const made = { ...link, orderCount: 0 };
  const claim = options.claimKey(made);
  return settleClaim(await insertPaymentLinkClaimingKey(database, link, claim), claim) ?? made;
}

/** The quantities a customer may choose, Stripe's defaults filled in; both null: one. */
function quantityRange(quantity: AdjustableQuantityInput | undefined) {
  if (!quantity?.enabled) return { quantityMinimum: null, quantityMaximum: null };
  return { quantityMinimum: quantity.minimum ?? 1, quantityMaximum: quantity.maximum ?? 99 };
}

/** A price times the largest quantity must stay a session's amount; `param` is what the request changed. */
function tooLargeForOnePayment(param: string) {
  return errors.parameterInvalid(
    `amount × adjustable_quantity.maximum must be at most ${MAX_AMOUNT}`,
    param,
    'The price times the largest quantity is more than one payment can be.',
  );
}

/** "HTTPS://shop…" is a valid URL; the table keeps schemes in lower case, the rest as the merchant wrote it. */
function withLowercaseScheme(url: string): string {
  return url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, (scheme) => scheme.toLowerCase());
}

function requireApprovedWebsite(merchant: MerchantRules, url: string, param: string): void {
  const host = hostOfUrl(new URL(url));
  if (!merchant.hosts.includes(host)) {
    throw errors.urlNotApproved(
      `${param} host ${host} is not an approved website of this account`,
      param,
      'This address is not on one of your approved websites. Use one of them, or leave it empty.',
    );
  }
}

/** The merchant's link, or null for any other id (another merchant's reads exactly like a missing one). */
export async function getPaymentLink(context: RequestContext, id: string): Promise<PaymentLink | null> {
  const { db: database, merchantId } = context;
  if (!isId('paymentLink', id)) return null;
  return findPaymentLink(database, merchantId, id);
}

export async function getPaymentLinkOrThrow(context: RequestContext, id: string): Promise<PaymentLink> {
  const link = await getPaymentLink(context, id);
  if (!link) throw errors.resourceMissing(`No such payment link: '${id}'`, 'id', 'This payment link was not found.');
  return link;
}

export async function listPaymentLinks(
  context: RequestContext,
  query: { limit: number; starting_after?: string; active?: 'true' | 'false' },
) {
  const { db: database, merchantId } = context;
  const filters = { active: query.active ? query.active === 'true' : undefined };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => findPaymentLinkCursor(database, merchantId, id),
    findPage: (page) => findPaymentLinksPage(database, merchantId, filters, page),
  });
}

/**
 * Name, description, active, metadata and the quantities offered, as the API changes them; and the price, which
 * only the dashboard sends (updatePaymentLinkWithPriceInput). Sessions already made keep the price and quantity
 * they were made with: each copied them (lib/payment-links/checkout.ts). Metadata merges (lib/core/metadata.ts):
 * given keys are set, a key given as "" is removed, the others stay.
 */
export function updatePaymentLink(
  context: RequestContext,
  id: string,
  input: UpdatePaymentLinkWithPriceInput,
): Promise<PaymentLink>;
export function updatePaymentLink(
  context: RequestContext,
  id: string,
  input: UpdatePaymentLinkWithPriceInput,
  options: KeyOption,
): Promise<Claimed<PaymentLink>>;
export async function updatePaymentLink(
  context: RequestContext,
  id: string,
  input: UpdatePaymentLinkWithPriceInput,
  options: KeyOption = {},
): Promise<Claimed<PaymentLink>> {
  const { db: database } = context;
  const link = await getPaymentLinkOrThrow(context, id);
  const quantity = input.adjustable_quantity ? quantityRange(input.adjustable_quantity) : undefined;
  const nothingToChange =
    input.name === undefined &&
    input.description === undefined &&
    input.active === undefined &&
    input.amount === undefined &&
    !quantity &&
    !input.metadata;
  // with a key, even an empty update claims it with its answer: the key then holds this body, as any other
  if (nothingToChange && !options.claimKey) return link;
  const changes: PaymentLinkChanges = {
    name: input.name,
    description: input.description === undefined ? undefined : input.description || null,
    active: input.active,
    amount: input.amount,
    quantity: quantity && { minimum: quantity.quantityMinimum, maximum: quantity.quantityMaximum },
    metadata: metadataChanges(input.metadata ?? {}),
    updatedAt: nothingToChange ? null : context.now,
  };
  const refusal = (reason: UpdateRefusal) =>
    reason === 'amount_limit'
      ? tooLargeForOnePayment(input.amount === undefined ? 'adjustable_quantity.maximum' : 'amount')
      : errors.parameterInvalid(
          `This update would leave the payment link with more than ${METADATA_MAX_KEYS} metadata keys; remove some by setting them to ""`,
          'metadata',
          `A payment link can have at most ${METADATA_MAX_KEYS} metadata keys; remove some first.`,
        );
  if (!options.claimKey) {
    const updated = await updatePaymentLinkById(database, link.id, changes);
    if (typeof updated === 'string') throw refusal(updated);
    return updated;
  }
  // the answer as this update will leave the link, but for its metadata, which the statement merges and fills in
  const expected: PaymentLink = {
    ...link,
    name: changes.name ?? link.name,
    description: changes.description === undefined ? link.description : changes.description,
    active: changes.active ?? link.active,
    amount: changes.amount ?? link.amount,
    ...(quantity ?? {}),
    updatedAt: changes.updatedAt ?? link.updatedAt,
  };
  const claim = options.claimKey(expected);
  const answer = { ...(claim.body as object), metadata: METADATA_IN_ANSWER };
  const result = await updatePaymentLinkClaimingKey(database, link.id, changes, { ...claim, body: answer });
  if (typeof result === 'string') throw refusal(result);
  return settleClaim(result.outcome, claim) ?? result.link!;
}
