import type { JsonSchema } from './json-schema';

// What the request fields mean. The request schemas are the routes' own zod schemas, which say what is
// valid but not why; these notes are laid onto their JSON Schemas by field path (`items[].name`).
// document.test.ts fails on a note whose field no longer exists.

export const REQUEST_FIELD_NOTES: Record<string, Record<string, string>> = {
  CreateCheckoutSessionRequest: {
    order_reference:
      'Your reference of the order. The order is found or made by it; once paid, no session of it can be paid again',
    currency: 'The currency of every amount',
    items: 'What the customer buys, shown on the hosted page',
    'items[].name': 'As the customer should read it',
    'items[].quantity': 'How many',
    'items[].unit_amount': 'Price of one, in cents',
    shipping_amount: 'Shipping, in cents',
    tax_amount: 'Tax, in cents',
    amount:
      'The total in cents: Σ quantity × unit_amount + shipping_amount + tax_amount, else `amount_mismatch`; a total outside 1–99,999,999 is `parameter_invalid`',
    return_url: 'Where the customer goes after paying, with `session_id` added; its host must be an approved website',
    cancel_url: 'The hosted page’s link back to your shop; its host must be an approved website',
    payment_methods:
      'The methods to offer; by default every approved method that takes the currency (interac: CAD, usdc: USD)',
    metadata:
      'Your own key/value pairs (at most 50 keys of 1–40 characters, values of at most 500); its payment copies them',
  },
  CreateRefundRequestRequest: {
    payment_id: 'The succeeded payment to refund',
    amount: 'How much, in cents; with the other active refunds, at most the payment’s amount',
    reason: 'Why, for your records',
    crypto_refund_destination_note:
      'USDC payments only, and required for them: where the refund should go and how that was verified',
    metadata: 'Your own key/value pairs (at most 50 keys of 1–40 characters, values of at most 500)',
  },
  CreatePaymentLinkRequest: {
    name: 'What is sold, shown to customers',
    amount: 'The price, in cents',
    currency: 'The currency of the price',
    description: 'More about it, shown under the name',
    payment_methods:
      'The methods to offer; by default every approved method that takes the currency, at the time of payment',
    after_payment_url:
      'Where the customer goes after paying; its host must be an approved website. Without one they see a receipt',
    active: 'Whether the link takes payments',
    metadata:
      'Your own key/value pairs (at most 50 keys of 1–40 characters, values of at most 500); each checkout session and payment through the link copies them',
    adjustable_quantity: 'With `enabled`, the customer chooses how many on the link’s page',
    'adjustable_quantity.minimum': 'The fewest they may choose (default 1); at most maximum, else `parameter_invalid`',
    'adjustable_quantity.maximum':
      'The most they may choose (default 99); amount × maximum at most 99,999,999, else `parameter_invalid`',
  },
  UpdatePaymentLinkRequest: {
    name: 'A new name',
    description: 'A new description; null clears it',
    active: 'false stops the link taking payments, true starts it again',
    metadata:
      'Merged into the link’s: given keys are set, a key given as "" is removed, the others stay; at most 50 keys after the merge',
    adjustable_quantity:
      'Replaces the quantities the customer may choose, with the defaults of create; `{ "enabled": false }` sells one per payment',
    'adjustable_quantity.minimum': 'The fewest they may choose (default 1); at most maximum, else `parameter_invalid`',
    'adjustable_quantity.maximum':
      'The most they may choose (default 99); the link’s amount × maximum at most 99,999,999, else `parameter_invalid`',
  },
  CreateWebhookEndpointRequest: {
    url: 'Where to POST events: http or https, not a private address (unless the server allows them)',
    events: 'The event types to send, each once, or `["*"]` for every type, now and later: `"*"` stands alone',
    description: 'For your records',
  },
  UpdateWebhookEndpointRequest: {
    url: 'A new URL, under the same rules as at creation',
    events: 'The new event types, each once, or `["*"]` for every type: `"*"` stands alone',
    status: '`disabled` stops deliveries until it is `enabled` again',
  },
  PayCheckoutSessionRequest: {
    payment_method: 'How the customer pays: one the session offers',
    card_number:
      'A test card number: 12 to 19 digits, spaces and dashes between them ignored; it must pass the Luhn check, else `parameter_invalid`',
    exp_month: 'Expiry month; with exp_year, an expired card is refused',
    exp_year: 'Expiry year; with exp_month, an expired card is refused (`parameter_invalid`)',
    cvc: 'Any 3 or 4 digits',
    name: 'Name on the card',
    outcome: 'What the customer does in their bank: approve or decline',
    email: 'The payer’s e-mail, kept masked',
    bank: 'The payer’s bank',
  },
};

/** Sets `description` on each noted field; returns the notes that found no field. */
export function applyRequestNotes(schema: JsonSchema, notes: Record<string, string>): string[] {
  const used = new Set<string>();
  const visit = (node: JsonSchema, prefix: string) => {
    for (const variant of (node.oneOf ?? node.anyOf ?? []) as JsonSchema[]) visit(variant, prefix);
    for (const [name, field] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
      const path = prefix + name;
      if (notes[path]) {
        field.description = notes[path];
        used.add(path);
      }
      const items = field.items as JsonSchema | undefined;
      if (items) visit(items, `${path}[].`);
      if (field.properties) visit(field, `${path}.`);
    }
  };
  visit(schema, '');
  return Object.keys(notes).filter((path) => !used.has(path));
}
