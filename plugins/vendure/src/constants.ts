/** The PaymentMethodHandler's code: a Vendure payment method set up with it takes sandbox payments. */
export const HANDLER_CODE = 'sandbox-payments';

/** The Nest injection token of the plugin's validated options. */
export const SANDBOX_PAYMENTS_OPTIONS = Symbol('SANDBOX_PAYMENTS_OPTIONS');

/** Where the sandbox's webhook endpoint must point, under the Vendure server's root. */
export const WEBHOOK_PATH = 'sandbox-payments/webhooks';

/**
 * Metadata the plugin writes on every checkout session and refund request it makes, so an event alone names
 * the Vendure order, the channel it belongs to and the payment method to record it with.
 */
export const METADATA = {
  orderCode: 'vendure_order_code',
  channelToken: 'vendure_channel_token',
  paymentMethod: 'vendure_payment_method',
  paymentId: 'vendure_payment_id',
} as const;
