import { MedusaError } from '@medusajs/framework/utils';
import { describe, expect, it } from 'vitest';
import { optionProblems, SandboxPaymentProviderService } from '../src';
import { toMajorUnits, toMinorUnits } from '../src/money';
import { options } from './support';

describe('options', () => {
  it('are checked at start, every problem named in one error', () => {
    expect(optionProblems(options())).toEqual([]);
    expect(optionProblems(options({ captureMethod: 'manual', cancelUrl: undefined }))).toEqual([]);
    let thrown: unknown;
    try {
      SandboxPaymentProviderService.validateOptions({
        apiKey: 'sk_live_123',
        baseUrl: 'localhost:3000',
        returnUrl: 'ftp://shop.example.com',
        webhookSecret: 'secret',
        captureMethod: 'later',
        retunUrl: 'https://shop.example.com',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MedusaError);
    const message = (thrown as Error).message;
    expect(message).toMatch(/^Sandbox payments provider options are not valid: /);
    for (const part of [
      'retunUrl is not an option',
      'apiKey must be a secret key of the form sk_sandbox_',
      'baseUrl must be an http(s) URL',
      'returnUrl must be an absolute http(s) URL',
      'webhookSecret must be the endpoint signing secret, whsec_',
      'captureMethod must be "automatic" or "manual"',
    ])
      expect(message).toContain(part);
    // constructed without Medusa's loader (as a test would), the same check runs
    expect(() => new SandboxPaymentProviderService({}, { ...options(), apiKey: '' })).toThrow(/apiKey must be/);
  });
});

describe('amounts', () => {
  it('turn Medusa’s major units into the sandbox’s minor units exactly, rounding half up, and back', () => {
    expect(toMinorUnits(37.5, 'usd')).toBe(3750);
    expect(toMinorUnits('0.1', 'usd') + toMinorUnits('0.2', 'usd')).toBe(30);
    expect(toMinorUnits(19.999, 'usd')).toBe(2000);
    expect(toMinorUnits('10.005', 'cad')).toBe(1001);
    expect(toMinorUnits('10.0049', 'cad')).toBe(1000);
    expect(toMinorUnits({ value: '1234.56', precision: 20 }, 'usd')).toBe(123456);
    expect(toMinorUnits(999999.99, 'usd')).toBe(99999999);
    expect(toMajorUnits(3750, 'usd').toNumber()).toBe(37.5);
    expect(toMajorUnits(1, 'cad').toFixed()).toBe('0.01');
    expect(() => toMinorUnits(-1, 'usd')).toThrow(/not a non-negative number/);
  });
});
