import { PluginCommonModule, Type, VendurePlugin, type VendureConfig } from '@vendure/core';

type RefundProcess = NonNullable<VendureConfig['paymentOptions']['refundProcess']>[number];
import { SANDBOX_PAYMENTS_OPTIONS, WEBHOOK_PATH } from './constants';
import { sandboxPaymentsHandler } from './handler';
import { validateOptions, type SandboxPaymentsOptions } from './options';
import { rawBodyMiddleware } from './raw-body';
import { SandboxPaymentsService } from './sandbox-payments.service';
import { shopApiExtensions, SandboxPaymentsShopResolver } from './shop-api';
import { SandboxPaymentsWebhookController } from './webhook.controller';

/**
 * Vendure moves a new refund to the state its handler answers, and its default process has no Pending →
 * Pending: without this a handler cannot say "asked, not finished yet", which is what a refund request is.
 */
export const pendingRefundProcess: RefundProcess = {
  transitions: { Pending: { to: ['Pending'], mergeStrategy: 'merge' } },
};

/**
 * Sandbox Payments for Vendure 3: `SandboxPaymentsPlugin.init({ apiKey, baseUrl, returnUrl, webhookSecret })`
 * in the plugins of vendure-config.ts, then a payment method with the `sandbox-payments` handler.
 */
@VendurePlugin({
  imports: [PluginCommonModule],
  providers: [
    { provide: SANDBOX_PAYMENTS_OPTIONS, useFactory: () => SandboxPaymentsPlugin.options },
    SandboxPaymentsService,
  ],
  controllers: [SandboxPaymentsWebhookController],
  shopApiExtensions: { schema: shopApiExtensions, resolvers: [SandboxPaymentsShopResolver] },
  configuration: (config) => {
    config.paymentOptions.paymentMethodHandlers.push(sandboxPaymentsHandler);
    config.paymentOptions.refundProcess = [...(config.paymentOptions.refundProcess ?? []), pendingRefundProcess];
    // before Vendure's JSON parser: the signature covers the body's exact bytes
    config.apiOptions.middleware.push({ route: `/${WEBHOOK_PATH}`, handler: rawBodyMiddleware, beforeListen: true });
    return config;
  },
  compatibility: '^3.0.0',
})
export class SandboxPaymentsPlugin {
  static options: SandboxPaymentsOptions;

  /** Validates the options at once (a clear error naming each problem) and answers the plugin to list. */
  static init(options: SandboxPaymentsOptions): Type<SandboxPaymentsPlugin> {
    SandboxPaymentsPlugin.options = validateOptions(options);
    return SandboxPaymentsPlugin;
  }
}
