/** The plugin's options, as given to SandboxPaymentsPlugin.init() in vendure-config.ts. */
export type SandboxPaymentsOptions = {
  /** a secret key of the connection: sk_sandbox_… */
  apiKey: string;
  /** where the sandbox serves /v1, e.g. http://localhost:3000 */
  baseUrl: string;
  /** where the hosted checkout sends the customer after paying (its host must be an approved website) */
  returnUrl: string;
  /** the signing secret of the webhook endpoint that points at /sandbox-payments/webhooks: whsec_… */
  webhookSecret: string;
  /** automatic (the default): paying settles the payment; manual: paying authorizes it and the admin's settle captures */
  captureMethod?: CaptureMethod;
};

export type CaptureMethod = 'automatic' | 'manual';

const KNOWN = new Set(['apiKey', 'baseUrl', 'returnUrl', 'webhookSecret', 'captureMethod']);

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
  if (typeof given.webhookSecret !== 'string' || !/^whsec_[A-Za-z0-9+/=]+$/.test(given.webhookSecret))
    problems.push('webhookSecret must be the endpoint signing secret, whsec_…, shown when the endpoint was created');
  if (given.captureMethod !== undefined && given.captureMethod !== 'automatic' && given.captureMethod !== 'manual')
    problems.push('captureMethod must be "automatic" or "manual"');
  return problems;
}

/** Throws one error naming every problem; answers the options typed. */
export function validateOptions(options: unknown): SandboxPaymentsOptions {
  const problems = optionProblems(options);
  if (problems.length > 0) throw new Error(`SandboxPaymentsPlugin options are not valid: ${problems.join('; ')}`);
  return options as SandboxPaymentsOptions;
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
