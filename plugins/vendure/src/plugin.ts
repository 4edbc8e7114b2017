import { PluginCommonModule, Type, VendurePlugin } from '@vendure/core';
import { SANDBOX_PAYMENTS_OPTIONS, WEBHOOK_PATH } from './constants';
import { sandboxPaymentsHandler } from './handler';
import { validateOptions, type SandboxPaymentsOptions } from './options';
import { rawBodyMiddleware } from './raw-body';
import { SandboxPaymentsService } from './sandbox-payments.service';
import { shopApiExtensions, SandboxPaymentsShopResolver } from './shop-api';
import { SandboxPaymentsWebhookController } from './webhook.controller';

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
