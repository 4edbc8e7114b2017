import { describe, expect, it } from 'vitest';
import { SandboxPaymentsPlugin } from '../dist';

const valid = {
  apiKey: `sk_sandbox_${'a'.repeat(32)}`,
  baseUrl: 'http://localhost:3000',
  returnUrl: 'http://localhost:4000/checkout/return',
  webhookSecret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
};

describe('SandboxPaymentsPlugin.init', () => {
  it('takes valid options, with either capture method', () => {
    expect(SandboxPaymentsPlugin.init(valid)).toBe(SandboxPaymentsPlugin);
    expect(SandboxPaymentsPlugin.init({ ...valid, captureMethod: 'manual' })).toBe(SandboxPaymentsPlugin);
  });

  it('refuses bad options with one error naming every problem', () => {
    const bad = { ...valid, apiKey: 'pk_live_x', baseUrl: 'localhost:3000', captureMethod: 'later', colour: 'red' };
    expect(() => SandboxPaymentsPlugin.init(bad as never)).toThrow(
      'SandboxPaymentsPlugin options are not valid: colour is not an option (known: apiKey, baseUrl, returnUrl, webhookSecret, captureMethod); apiKey must be a secret key of the form sk_sandbox_ followed by 32 letters or digits; baseUrl must be an http(s) URL, e.g. http://localhost:3000; captureMethod must be "automatic" or "manual"',
    );
    expect(() => SandboxPaymentsPlugin.init({ ...valid, webhookSecret: '' })).toThrow(/webhookSecret must be/);
  });
});
