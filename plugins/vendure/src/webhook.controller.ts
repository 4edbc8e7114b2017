import { Controller, Headers, HttpCode, HttpException, Post, Req } from '@nestjs/common';
import { Logger } from '@vendure/core';
import { WEBHOOK_PATH } from './constants';
import type { RequestWithRawBody } from './raw-body';
import { SandboxPaymentsService } from './sandbox-payments.service';
import { verifyDelivery, type SandboxEvent } from './webhooks';

/**
 * Receives the sandbox's webhooks. A delivery that fails verification is answered 400 and never acted on;
 * one that could not be applied yet (its refund not saved by Vendure so far) is answered 500, so the
 * sandbox delivers it again later.
 */
@Controller(WEBHOOK_PATH)
export class SandboxPaymentsWebhookController {
  constructor(private readonly service: SandboxPaymentsService) {}

  @Post()
  @HttpCode(200)
  async receive(@Req() request: RequestWithRawBody, @Headers() headers: Record<string, unknown>): Promise<string> {
    let event: SandboxEvent;
    try {
      event = verifyDelivery(request.rawBody ?? Buffer.alloc(0), headers, this.service.options.webhookSecret);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      Logger.warn(`webhook refused: ${reason}`, 'SandboxPaymentsPlugin');
      throw new HttpException(`Webhook refused: ${reason}`, 400);
    }
    try {
      await this.service.handleEvent(event);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      Logger.error(`event ${event.id} (${event.type}) not applied: ${reason}`, 'SandboxPaymentsPlugin');
      throw new HttpException(`Event not applied: ${reason}`, 500);
    }
    return 'ok';
  }
}
