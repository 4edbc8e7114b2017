import { randomUUID } from 'node:crypto';
import { AbstractPaymentProvider, MedusaError, PaymentSessionStatus } from '@medusajs/framework/utils';
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from '@medusajs/framework/types';
import { Sandbox, SandboxError, type CheckoutSession, type Payment } from '@sandbox-payments/client';
import { calling } from './errors';
import { sandboxCurrency, toMinorUnits } from './money';
import { validateOptions, type CaptureMethod, type SandboxOptions } from './options';
import { sessionStatus, type SandboxState } from './status';
import { actionFor, SESSION_METADATA_KEY, verifyDelivery } from './webhooks';

// Medusa's request waits on each call: a sandbox that does not answer fails it after 30 s per attempt (the
// client's default is 80 s)
const SANDBOX_TIMEOUT_MS = 30_000;

type CheckoutSessionBody = Parameters<Sandbox['checkoutSessions']['create']>[0];
type RefundRequestBody = Parameters<Sandbox['refundRequests']['create']>[0];

/** What the provider keeps in a Medusa payment session's (and then its payment's) `data`. */
export type SandboxSessionData = {
  /** the Medusa payment session's id, which is the checkout session's order_reference */
  session_id?: string;
  checkout_session_id?: string;
  /** the hosted checkout page: send the customer there */
  checkout_url?: string;
  amount?: number;
  currency?: 'USD' | 'CAD';
  capture_method?: CaptureMethod;
  payment_id?: string | null;
  payment_status?: Payment['status'];
  refund_request_ids?: string[];
};

/**
 * A Medusa v2 payment module provider for Sandbox Payments: a Medusa payment session is one hosted checkout
 * session, authorized by the payment the customer makes there, captured at once (automatic) or by
 * Medusa's capture (manual), refunded by refund requests, and moved on by signed webhooks.
 */
export class SandboxPaymentProviderService extends AbstractPaymentProvider<SandboxOptions> {
  static identifier = 'sandbox';

  protected readonly options_: SandboxOptions;
  protected readonly sandbox_: Sandbox;

  /** Medusa's loader calls this at start with the options from medusa-config.ts. */
  static validateOptions(options: Record<string, unknown>): void {
    validateOptions(options);
  }

  constructor(container: Record<string, unknown>, options: SandboxOptions) {
    super(container, options);
    this.options_ = validateOptions(options);
    this.sandbox_ = new Sandbox({ apiKey: options.apiKey, baseUrl: options.baseUrl, timeout: SANDBOX_TIMEOUT_MS });
  }

  get captureMethod(): CaptureMethod {
    return this.options_.captureMethod ?? 'automatic';
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = (input.data?.session_id as string | undefined) ?? input.context?.idempotency_key;
    if (!sessionId)
      throw new MedusaError(MedusaError.Types.INVALID_DATA, 'Sandbox payments needs the payment session id');
    const session = await this.createCheckoutSession(
      sessionId,
      input.amount,
      input.currency_code,
      input.context?.idempotency_key ?? sessionId,
    );
    return { id: session.id, status: PaymentSessionStatus.PENDING, data: this.sessionData(sessionId, session) };
  }

  /** A new amount or currency needs a new checkout session (a session's amount never changes); the old one is expired. */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = (input.data ?? {}) as SandboxSessionData;
    const currency = sandboxCurrency(input.currency_code);
    const amount = toMinorUnits(input.amount, input.currency_code);
    if (data.checkout_session_id && data.amount === amount && data.currency === currency) return { data };
    const sessionId = data.session_id ?? input.context?.idempotency_key;
    if (!sessionId)
      throw new MedusaError(MedusaError.Types.INVALID_DATA, 'Sandbox payments needs the payment session id');
    if (data.checkout_session_id) await this.expireIfOpen(data.checkout_session_id);
    // one key per step of the session's history, so a retried update replays instead of making another
    const key = `${data.checkout_session_id ?? sessionId}:${currency}:${amount}`;
    const session = await this.createCheckoutSession(sessionId, input.amount, input.currency_code, key);
    return { status: PaymentSessionStatus.PENDING, data: { ...data, ...this.sessionData(sessionId, session) } };
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = (input.data ?? {}) as SandboxSessionData;
    if (data.checkout_session_id) await this.expireIfOpen(data.checkout_session_id);
    return { data };
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.getPaymentStatus(input);
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = this.dataOf(input.data);
    const state = await this.state(data);
    return { status: sessionStatus(state), data: this.withPayment(data, state.payment) };
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const data = this.dataOf(input.data);
    const state = await this.state(data);
    return { data: this.withPayment(data, state.payment) };
  }

  /**
   * Manual capture takes the authorized payment (all of it: Medusa gives the provider no amount, and the
   * sandbox captures once, as Stripe does). An automatic payment was captured when paid: nothing to do.
   */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = this.dataOf(input.data);
    if (data.capture_method !== 'manual') return { data };
    const paymentId = await this.paymentIdOf(data);
    const key = input.context?.idempotency_key ?? `capture:${paymentId}`;
    try {
      const payment = await this.sandbox_.payments.capture(paymentId, {}, { idempotencyKey: key });
      return { data: this.withPayment(data, payment) };
    } catch (error) {
      const payment = await this.afterConflict(error, 'payment_not_capturable', paymentId, 'capture the payment');
      if (payment.status !== 'succeeded')
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `Sandbox payments could not capture payment ${paymentId}: it is ${payment.status}`,
        );
      return { data: this.withPayment(data, payment) };
    }
  }

  /** Releases an authorization (manual), or expires a checkout session nobody paid. A captured payment is refunded, not canceled. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = this.dataOf(input.data);
    if (!data.checkout_session_id) return { data };
    const paymentId = data.payment_id ?? (await this.session(data.checkout_session_id)).payment_id;
    if (!paymentId) {
      await this.expireIfOpen(data.checkout_session_id);
      return { data };
    }
    let payment = await this.payment(paymentId);
    if (payment.status === 'requires_capture') {
      try {
        const key = input.context?.idempotency_key ?? `cancel:${paymentId}`;
        payment = await this.sandbox_.payments.cancel(paymentId, {}, { idempotencyKey: key });
      } catch (error) {
        payment = await this.afterConflict(error, 'payment_not_cancelable', paymentId, 'cancel the payment');
      }
    }
    if (payment.status === 'succeeded')
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Sandbox payments cannot cancel payment ${paymentId}: it was captured; refund it instead`,
      );
    return { data: this.withPayment(data, payment) };
  }

  /** A refund request for the amount; the sandbox finishes it later (its events say how it ended). */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = this.dataOf(input.data);
    const paymentId = await this.paymentIdOf(data);
    const payment = await this.payment(paymentId);
    const key = input.context?.idempotency_key ?? randomUUID();
    const body: RefundRequestBody = {
      payment_id: paymentId,
      amount: toMinorUnits(input.amount, payment.currency),
      metadata: { [SESSION_METADATA_KEY]: data.session_id ?? payment.order_reference, medusa_refund_key: key },
    };
    if (payment.payment_method === 'usdc') {
      if (!this.options_.cryptoRefundDestinationNote)
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          'Sandbox payments needs the provider option cryptoRefundDestinationNote to refund a USDC payment: say how the customer’s refund wallet is verified',
        );
      body.crypto_refund_destination_note = this.options_.cryptoRefundDestinationNote;
    }
    const refund = await calling('request the refund', () =>
      this.sandbox_.refundRequests.create(body, { idempotencyKey: key }),
    );
    return { data: { ...data, refund_request_ids: [...(data.refund_request_ids ?? []), refund.id] } };
  }

  async getWebhookActionAndData(payload: ProviderWebhookPayload['payload']): Promise<WebhookActionResult> {
    return actionFor(verifyDelivery(payload, this.options_.webhookSecret));
  }

  private async createCheckoutSession(
    sessionId: string,
    amount: InitiatePaymentInput['amount'],
    currencyCode: string,
    idempotencyKey: string,
  ): Promise<CheckoutSession> {
    const minor = toMinorUnits(amount, currencyCode);
    const body: CheckoutSessionBody = {
      order_reference: sessionId,
      currency: sandboxCurrency(currencyCode),
      // Medusa gives the provider a total only, so the hosted page shows one line for it
      items: [{ name: 'Order total', quantity: 1, unit_amount: minor }],
      amount: minor,
      return_url: this.options_.returnUrl,
      metadata: { [SESSION_METADATA_KEY]: sessionId },
    };
    if (this.options_.cancelUrl) body.cancel_url = this.options_.cancelUrl;
    // sent only for manual capture, so automatic capture works with sandboxes older than the parameter
    if (this.captureMethod === 'manual') body.capture_method = 'manual';
    return calling('create the checkout session', () =>
      this.sandbox_.checkoutSessions.create(body, { idempotencyKey }),
    );
  }

  private sessionData(sessionId: string, session: CheckoutSession): SandboxSessionData {
    return {
      session_id: sessionId,
      checkout_session_id: session.id,
      checkout_url: session.url,
      amount: session.amount,
      currency: session.currency as 'USD' | 'CAD',
      capture_method: session.capture_method ?? this.captureMethod,
      payment_id: session.payment_id,
    };
  }

  private dataOf(data: Record<string, unknown> | undefined): SandboxSessionData {
    const typed = (data ?? {}) as SandboxSessionData;
    if (!typed.checkout_session_id)
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        'Sandbox payments: this payment has no checkout_session_id in its data (was it made by this provider?)',
      );
    return typed;
  }

  private withPayment(data: SandboxSessionData, payment: Payment | undefined): SandboxSessionData {
    return payment ? { ...data, payment_id: payment.id, payment_status: payment.status } : data;
  }

  private session(id: string): Promise<CheckoutSession> {
    return calling('read the checkout session', () => this.sandbox_.checkoutSessions.retrieve(id));
  }

  private payment(id: string): Promise<Payment> {
    return calling('read the payment', () => this.sandbox_.payments.retrieve(id));
  }

  /** The session, its payment when paid, and whether a card was declined on it while it is still open. */
  private async state(data: SandboxSessionData): Promise<SandboxState> {
    const session = await this.session(data.checkout_session_id!);
    if (session.payment_id) {
      return { session, payment: await this.payment(session.payment_id), declined: false };
    }
    if (session.status !== 'open') return { session, declined: false };
    // a declined attempt leaves the session open and unpaid: its failed payment is listed under the order
    const query = { order_reference: session.order_reference, status: 'failed', limit: 100 } as const;
    const failed = await calling('list the session’s payments', () => this.sandbox_.payments.list(query));
    return { session, declined: failed.data.some((payment) => payment.checkout_session_id === session.id) };
  }

  private async paymentIdOf(data: SandboxSessionData): Promise<string> {
    const paymentId = data.payment_id ?? (await this.session(data.checkout_session_id!)).payment_id;
    if (!paymentId)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Sandbox payments: checkout session ${data.checkout_session_id} has not been paid`,
      );
    return paymentId;
  }

  /** After a 409 of the given code, the payment as it is now (a retry of a call that already took effect); other errors pass on. */
  private async afterConflict(error: unknown, code: string, paymentId: string, what: string): Promise<Payment> {
    if (!(error instanceof SandboxError) || error.code !== code) return calling(what, () => Promise.reject(error));
    return this.payment(paymentId);
  }

  private async expireIfOpen(checkoutSessionId: string): Promise<void> {
    try {
      await this.sandbox_.checkoutSessions.expire(checkoutSessionId);
    } catch (error) {
      // paid or expired already: nothing left to expire
      if (error instanceof SandboxError && error.code === 'checkout_session_not_open') return;
      await calling('expire the checkout session', () => Promise.reject(error));
    }
  }
}
