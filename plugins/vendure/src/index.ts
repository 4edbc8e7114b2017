export { SandboxPaymentsPlugin } from './plugin';
export { sandboxPaymentsHandler } from './handler';
export { SandboxPaymentsService, SandboxPaymentsError, type SandboxCheckout } from './sandbox-payments.service';
export { optionProblems, validateOptions, type SandboxPaymentsOptions, type CaptureMethod } from './options';
export { HANDLER_CODE, WEBHOOK_PATH } from './constants';
