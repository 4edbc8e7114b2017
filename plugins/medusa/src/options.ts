import { MedusaError } from '@medusajs/framework/utils';

/** The provider's options, as given in medusa-config.ts. */
export type SandboxOptions = {
  /** a secret key of the connection: sk_sandbox_… */
  apiKey: string;
  /** where the sandbox serves /v1, e.g. http://localhost:3000 */
  baseUrl: string;
  /** where the hosted checkout sends the customer after paying (its host must be an approved website) */
  returnUrl: string;
  /** where its cancel link goes; none when omitted */
  cancelUrl?: string;
  /** the signing secret of the webhook endpoint that points at /hooks/payment/sandbox_<id>: whsec_… */
  webhookSecret: string;
  /** automatic (the default): paying captures; manual: paying authorizes and Medusa's capture takes the money */
  captureMethod?: CaptureMethod;
  /** for refunds of USDC payments: how the merchant verifies the customer's refund wallet (required by the API) */
  cryptoRefundDestinationNote?: string;
};

export type CaptureMethod = 'automatic' | 'manual';

const KNOWN = new Set([
  'apiKey',
  'baseUrl',
  'returnUrl',
  'cancelUrl',
  'webhookSecret',
  'captureMethod',
  'cryptoRefundDestinationNote',
]);

/** Every problem with the options at once, so one start-up says all that must change. */
export function optionProblems(options: unknown): string[] {
  if (typeof options !== 'object' || options === null) return ['options must be an object'];
  const given = options as Record<string, unknown>;
  const problems = Object.keys(given)
    .filter((key) => !KNOWN.has(key))
    .map((key) => `${key} is not an option (known: ${[...KNOWN].join(', ')})`);
  if (typeof given.apiKey !== 'string' || !/^sk_sandbox_[A-Za-z0-9]{32}$/.test(given.apiKey))
    problems.push('apiKey must be a secret key of the form sk_sandbox_ followed by 32 letters or digits');
  if (!isHttpUrl(given.baseUrl)) problems.push('baseUrl must be an http(s) URL, e.g. http://localhost:3000');
  if (!isHttpUrl(given.returnUrl)) problems.push('returnUrl must be an absolute http(s) URL');
  if (given.cancelUrl !== undefined && !isHttpUrl(given.cancelUrl))
    problems.push('cancelUrl, when given, must be an absolute http(s) URL');
  if (typeof given.webhookSecret !== 'string' || !/^whsec_[A-Za-z0-9+/=]+$/.test(given.webhookSecret))
    problems.push('webhookSecret must be the endpoint signing secret, whsec_…, shown when the endpoint was created');
  if (given.captureMethod !== undefined && given.captureMethod !== 'automatic' && given.captureMethod !== 'manual')
    problems.push('captureMethod must be "automatic" or "manual"');
  const note = given.cryptoRefundDestinationNote;
  if (note !== undefined && (typeof note !== 'string' || note.trim().length === 0 || note.length > 1000))
    problems.push('cryptoRefundDestinationNote, when given, must be 1–1000 characters');
  return problems;
}

/** Throws one MedusaError naming every problem; answers the options typed. */
export function validateOptions(options: unknown): SandboxOptions {
  const problems = optionProblems(options);
  if (problems.length > 0)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Sandbox payments provider options are not valid: ${problems.join('; ')}`,
    );
  return options as SandboxOptions;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
