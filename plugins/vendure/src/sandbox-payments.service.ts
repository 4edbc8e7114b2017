import { Inject, Injectable } from '@nestjs/common';
import {
  ActiveOrderService,
  ChannelService,
  ErrorResult,
  Logger,
  Order,
  OrderService,
  PaymentMethod,
  PaymentMethodService,
  Refund,
  RequestContext,
  RequestContextService,
  TransactionalConnection,
  UserInputError,
} from '@vendure/core';
import {
  Sandbox,
  SandboxError,
  type CheckoutSession,
  type Payment,
  type RefundRequest,
} from '@sandbox-payments/client';
import { HANDLER_CODE, METADATA, SANDBOX_PAYMENTS_OPTIONS } from './constants';
import type { SandboxPaymentsOptions } from './options';
import type { SandboxEvent } from './webhooks';

const LOGGER_CTX = 'SandboxPaymentsPlugin';

// a storefront's request or a webhook delivery waits on each call: a sandbox that does not answer fails it
// after 30 s per attempt (the client's default is 80 s)
const SANDBOX_TIMEOUT_MS = 30_000;

type CheckoutSessionBody = Parameters<Sandbox['checkoutSessions']['create']>[0];

/** What the Shop API mutation answers: the hosted checkout to send the customer to. */
export type SandboxCheckout = { id: string; url: string };

/**
 * The plugin's work: a checkout session for the active order, the payment added to the order when the
 * sandbox says it was paid, and a refund's outcome applied when the sandbox says how it ended.
 */
@Injectable()
export class SandboxPaymentsService {
  readonly sandbox: Sandbox;

  constructor(
    @Inject(SANDBOX_PAYMENTS_OPTIONS) readonly options: SandboxPaymentsOptions,
    private readonly activeOrderService: ActiveOrderService,
    private readonly orderService: OrderService,
    private readonly paymentMethodService: PaymentMethodService,
    private readonly requestContextService: RequestContextService,
    private readonly channelService: ChannelService,
    private readonly connection: TransactionalConnection,
  ) {
    this.sandbox = new Sandbox({ apiKey: options.apiKey, baseUrl: options.baseUrl, timeout: SANDBOX_TIMEOUT_MS });
  }

  get captureMethod(): 'automatic' | 'manual' {
    return this.options.captureMethod ?? 'automatic';
  }

  /** Moves the active order to ArrangingPayment and makes a checkout session for its total. */
  async createCheckout(ctx: RequestContext): Promise<SandboxCheckout> {
    const active = await this.activeOrderService.getActiveOrder(ctx, undefined);
    if (!active) throw new UserInputError('There is no active order to pay');
    if (active.state !== 'ArrangingPayment') {
      const moved = await this.orderService.transitionToState(ctx, active.id, 'ArrangingPayment');
      if (moved instanceof ErrorResult || (moved as { errorCode?: string }).errorCode)
        throw new UserInputError(`The order cannot be paid yet: ${(moved as { message?: string }).message ?? moved}`);
    }
    const order = await this.orderService.findOne(ctx, active.id);
    if (!order) throw new UserInputError('There is no active order to pay');
    const method = await this.paymentMethod(ctx);
    const currency = order.currencyCode.toUpperCase();
    if (currency !== 'USD' && currency !== 'CAD')
      throw new UserInputError(`Sandbox payments takes USD or CAD; this order is in ${currency}`);
    const body: CheckoutSessionBody = {
      order_reference: order.code,
      currency,
      ...lineItems(order),
      amount: order.totalWithTax,
      return_url: this.options.returnUrl,
      metadata: {
        [METADATA.orderCode]: order.code,
        [METADATA.channelToken]: ctx.channel.token,
        [METADATA.paymentMethod]: method.code,
      },
    };
    // sent only for manual capture, so automatic capture works with sandboxes older than the parameter
    if (this.captureMethod === 'manual') body.capture_method = 'manual';
    const session = await this.calling('create the checkout session', () => this.sandbox.checkoutSessions.create(body));
    return { id: session.id, url: session.url };
  }

  /** Acts on a verified event: a paid session becomes the order's payment; a refund's outcome settles or fails it. */
  async handleEvent(event: SandboxEvent): Promise<void> {
    const object = event.data.object;
    const metadata = { ...object.payment_metadata, ...object.metadata };
    const orderCode = metadata[METADATA.orderCode];
    const channelToken = metadata[METADATA.channelToken];
    if (!orderCode || !channelToken) return; // not made by this plugin
    const ctx = await this.requestContextService.create({ apiType: 'admin', channelOrToken: channelToken });
    switch (event.type) {
      case 'checkout_session.completed':
        return this.connection.withTransaction(ctx, (tx) =>
          this.addPayment(tx, orderCode, object as unknown as CheckoutSession),
        );
      case 'refund.completed':
        return this.finishRefund(ctx, object as unknown as RefundRequest, 'Settled');
      case 'refund.failed':
      case 'refund_request.declined':
      case 'refund_request.canceled':
        return this.finishRefund(ctx, object as unknown as RefundRequest, 'Failed');
      default:
        return;
    }
  }

  /** The session's payment, read back from the sandbox (never taken from the caller's word). */
  async paymentOfSession(checkoutSessionId: string): Promise<{ session: CheckoutSession; payment?: Payment }> {
    const session = await this.calling('read the checkout session', () =>
      this.sandbox.checkoutSessions.retrieve(checkoutSessionId),
    );
    if (!session.payment_id) return { session };
    return { session, payment: await this.payment(session.payment_id) };
  }

  async payment(id: string): Promise<Payment> {
    return this.calling('read the payment', () => this.sandbox.payments.retrieve(id));
  }

  /** Runs a call to the API, turning its error into one that says what the API said. */
  async calling<T>(what: string, call: () => PromiseLike<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      const detail = [error.code, error.param && `param ${error.param}`, error.requestId].filter(Boolean).join(', ');
      let message = `Sandbox payments could not ${what}: ${error.message}${detail ? ` (${detail})` : ''}`;
      if (error.code === 'url_not_approved')
        message += '. Approve the storefront host as a website of the connection (dashboard or CLI)';
      throw new SandboxPaymentsError(message, error.code);
    }
  }

  private async paymentMethod(ctx: RequestContext): Promise<PaymentMethod> {
    const methods = await this.paymentMethodService.findAll(ctx, { filter: { enabled: { eq: true } } });
    const method = methods.items.find((candidate) => candidate.handler.code === HANDLER_CODE);
    if (!method)
      throw new UserInputError(
        `No enabled payment method of this channel uses the ${HANDLER_CODE} handler: add one in the admin`,
      );
    return method;
  }

  private async addPayment(ctx: RequestContext, orderCode: string, session: CheckoutSession): Promise<void> {
    const order = await this.orderService.findOneByCode(ctx, orderCode, ['payments']);
    if (!order) {
      Logger.warn(
        `checkout session ${session.id} names order ${orderCode}, which this channel does not have`,
        LOGGER_CTX,
      );
      return;
    }
    // deliveries come at least once: a payment already recorded for this session is not added again
    if (
      order.payments?.some(
        (payment) => payment.metadata?.checkoutSessionId === session.id && payment.state !== 'Declined',
      )
    )
      return;
    if (order.state !== 'ArrangingPayment') {
      const moved = await this.orderService.transitionToState(ctx, order.id, 'ArrangingPayment');
      if ((moved as { errorCode?: string }).errorCode)
        throw new Error(`order ${orderCode} cannot take a payment: ${(moved as { message?: string }).message}`);
    }
    const method = session.metadata[METADATA.paymentMethod] ?? (await this.paymentMethod(ctx)).code;
    const result = await this.orderService.addPaymentToOrder(ctx, order.id, {
      method,
      metadata: { checkoutSessionId: session.id },
    });
    if ((result as { errorCode?: string }).errorCode)
      Logger.error(
        `payment of checkout session ${session.id} not added to order ${orderCode}: ${(result as { message?: string }).message}`,
        LOGGER_CTX,
      );
  }

  private async finishRefund(ctx: RequestContext, request: RefundRequest, state: 'Settled' | 'Failed'): Promise<void> {
    const refund = await this.connection.rawConnection
      .getRepository(Refund)
      .findOne({ where: { transactionId: request.id } });
    // the refund's outcome can arrive before Vendure has saved the refund it asked for: failing the delivery
    // makes the sandbox send it again a little later
    if (!refund) throw new Error(`no refund with transaction id ${request.id} (yet)`);
    if (refund.state !== 'Pending') return; // finished by an earlier delivery
    if (state === 'Settled') {
      const settled = await this.orderService.settleRefund(ctx, { id: refund.id, transactionId: request.id });
      if ((settled as { errorCode?: string }).errorCode)
        throw new Error(`refund ${refund.id} not settled: ${(settled as { message?: string }).message}`);
      return;
    }
    await this.failRefund(ctx, refund, request);
  }

  private async failRefund(ctx: RequestContext, refund: Refund, request: RefundRequest): Promise<void> {
    Logger.info(`refund ${refund.id} failed in the sandbox: ${request.failure_reason ?? request.status}`, LOGGER_CTX);
    const failed = await this.orderService.transitionRefundToState(ctx, refund.id, 'Failed');
    if ((failed as { errorCode?: string }).errorCode)
      throw new Error(`refund ${refund.id} not failed: ${(failed as { message?: string }).message}`);
  }
}

/** An error of the sandbox's API, as the plugin reports it. */
export class SandboxPaymentsError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SandboxPaymentsError';
  }
}

/**
 * The order's lines as the hosted page shows them, when their prices add up to its total exactly; otherwise
 * (a discount prorated into fractions of a cent) one line for the whole order.
 */
function lineItems(order: Order): Pick<CheckoutSessionBody, 'items' | 'shipping_amount'> {
  const items = order.lines.map((line) => ({
    name: (line.productVariant?.name || 'Item').slice(0, 200),
    quantity: line.quantity,
    unit_amount: line.proratedUnitPriceWithTax,
  }));
  const sum = items.reduce((total, item) => total + item.quantity * item.unit_amount, 0) + order.shippingWithTax;
  if (
    items.length > 0 &&
    items.length <= 100 &&
    sum === order.totalWithTax &&
    items.every((i) => Number.isInteger(i.unit_amount))
  )
    return { items, shipping_amount: order.shippingWithTax };
  return { items: [{ name: `Order ${order.code}`, quantity: 1, unit_amount: order.totalWithTax }] };
}
