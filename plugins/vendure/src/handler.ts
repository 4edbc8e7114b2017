import { randomUUID } from 'node:crypto';
import {
  CreatePaymentResult,
  CreateRefundResult,
  LanguageCode,
  PaymentMethodHandler,
  SettlePaymentResult,
  SettlePaymentErrorResult,
  CancelPaymentResult,
  CancelPaymentErrorResult,
} from '@vendure/core';
import { SandboxError, type Payment, type Sandbox } from '@sandbox-payments/client';
import { HANDLER_CODE, METADATA } from './constants';
import { SandboxPaymentsError, SandboxPaymentsService } from './sandbox-payments.service';

type RefundRequestBody = Parameters<Sandbox['refundRequests']['create']>[0];

let service: SandboxPaymentsService;

/**
 * The payment method handler. Its payments are added by the webhook controller, with the paid checkout
 * session's id; the handler reads the session and its payment back from the sandbox, so a storefront calling
 * addPaymentToOrder itself cannot claim a payment that was not made for this order.
 */
export const sandboxPaymentsHandler = new PaymentMethodHandler({
  code: HANDLER_CODE,
  description: [{ languageCode: LanguageCode.en, value: 'Sandbox Payments (hosted checkout)' }],
  args: {},

  init(injector) {
    service = injector.get(SandboxPaymentsService);
  },

  async createPayment(ctx, order, amount, args, metadata): Promise<CreatePaymentResult> {
    const checkoutSessionId = typeof metadata.checkoutSessionId === 'string' ? metadata.checkoutSessionId : undefined;
    const declined = (errorMessage: string): CreatePaymentResult => ({
      amount,
      state: 'Declined',
      errorMessage,
      metadata: { checkoutSessionId },
    });
    if (!checkoutSessionId) return declined('no checkoutSessionId in the payment metadata');
    const { session, payment } = await service.paymentOfSession(checkoutSessionId);
    if (session.metadata[METADATA.orderCode] !== order.code)
      return declined(`checkout session ${session.id} was not made for order ${order.code}`);
    if (!payment) return declined(`checkout session ${session.id} has not been paid`);
    if (payment.amount !== amount || payment.currency !== order.currencyCode.toUpperCase())
      return declined(`payment ${payment.id} is ${payment.amount} ${payment.currency}, not the order's ${amount}`);
    const state =
      payment.status === 'succeeded' ? 'Settled' : payment.status === 'requires_capture' ? 'Authorized' : undefined;
    if (!state) return { ...declined(`payment ${payment.id} is ${payment.status}`), transactionId: payment.id };
    return {
      amount,
      state,
      transactionId: payment.id,
      metadata: {
        checkoutSessionId,
        captureMethod: payment.capture_method ?? 'automatic',
        paymentMethod: payment.payment_method,
        public: { checkoutSessionId, paymentMethod: payment.payment_method },
      },
    };
  },

  /** Captures an authorized (manual) payment; an automatic one was captured when paid. */
  async settlePayment(ctx, order, payment): Promise<SettlePaymentResult | SettlePaymentErrorResult> {
    if (payment.metadata?.captureMethod !== 'manual') return { success: true };
    const paymentId = payment.transactionId;
    try {
      await service.sandbox.payments.capture(paymentId, {}, { idempotencyKey: `capture:${paymentId}` });
      return { success: true };
    } catch (error) {
      const now = await afterConflict(error, 'payment_not_capturable', paymentId, 'capture the payment');
      if (now.status === 'succeeded') return { success: true };
      return { success: false, errorMessage: `Sandbox payment ${paymentId} cannot be captured: it is ${now.status}` };
    }
  },

  /** Releases an authorization; a captured payment is refunded instead. */
  async cancelPayment(ctx, order, payment): Promise<CancelPaymentResult | CancelPaymentErrorResult> {
    const paymentId = payment.transactionId;
    try {
      await service.sandbox.payments.cancel(paymentId, {}, { idempotencyKey: `cancel:${paymentId}` });
      return { success: true };
    } catch (error) {
      const now = await afterConflict(error, 'payment_not_cancelable', paymentId, 'cancel the payment');
      if (now.status === 'canceled') return { success: true };
      return {
        success: false,
        errorMessage: `Sandbox payment ${paymentId} cannot be canceled: it is ${now.status}${now.status === 'succeeded' ? ' (refund it instead)' : ''}`,
      };
    }
  },

  /**
   * Asks a refund request. The sandbox finishes it later (at once when its test helper completes it), so the
   * refund stays Pending until its refund.completed or refund.failed event reaches the webhook controller.
   */
  async createRefund(ctx, input, amount, order, payment): Promise<CreateRefundResult> {
    const body: RefundRequestBody = {
      payment_id: payment.transactionId,
      amount,
      metadata: {
        [METADATA.orderCode]: order.code,
        [METADATA.channelToken]: ctx.channel.token,
        [METADATA.paymentId]: String(payment.id),
      },
    };
    if (input.reason) body.reason = input.reason.slice(0, 500);
    try {
      const refund = await service.calling('request the refund', () =>
        service.sandbox.refundRequests.create(body, { idempotencyKey: randomUUID() }),
      );
      return { state: 'Pending', transactionId: refund.id, metadata: { refundRequestId: refund.id } };
    } catch (error) {
      if (!(error instanceof SandboxPaymentsError)) throw error;
      return { state: 'Failed', metadata: { errorMessage: error.message } };
    }
  },
});

/** After a 409 of the given code, the payment as it is now (a retry of a call that already took effect); other errors pass on. */
async function afterConflict(error: unknown, code: string, paymentId: string, what: string): Promise<Payment> {
  if (!(error instanceof SandboxError) || error.code !== code)
    return service.calling(what, () => Promise.reject(error));
  return service.payment(paymentId);
}
