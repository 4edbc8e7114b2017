import { ModuleProvider, Modules } from '@medusajs/framework/utils';
import { SandboxPaymentProviderService } from './service';

export { SandboxPaymentProviderService, type SandboxSessionData } from './service';
export { optionProblems, type CaptureMethod, type SandboxOptions } from './options';
export { SESSION_METADATA_KEY } from './webhooks';

export default ModuleProvider(Modules.PAYMENT, { services: [SandboxPaymentProviderService] });
