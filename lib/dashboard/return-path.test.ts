import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInAddress } from './return-path';

describe('signInAddress', () => {
  it('brings the visitor back to the dashboard page and query they asked for', () => {
    expect(signInAddress('/dashboard/refunds?status=failed')).toBe(
      '/login?callbackUrl=%2Fdashboard%2Frefunds%3Fstatus%3Dfailed',
    );
    expect(signInAddress('/dashboard/payments/pay_123')).toBe('/login?callbackUrl=%2Fdashboard%2Fpayments%2Fpay_123');
    expect(signInAddress('/dashboard?range=7d')).toBe('/login?callbackUrl=%2Fdashboard%3Frange%3D7d');
  });

  it('names no page for Home, an unknown page, or anything that is not a dashboard path of ours', () => {
    for (const requested of [
      null,
      undefined,
      '',
      '/dashboard',
      '/checkout/cs_1',
      'https://evil.example.com/dashboard',
      '//evil.example.com/dashboard',
      '/dashboard//evil.example.com',
      '/dashboard/..//evil.example.com',
      '/\\evil.example.com',
      '/dashboardx',
      'javascript:alert(1)',
    ]) {
      expect(signInAddress(requested), String(requested)).toBe('/login');
    }
  });
});

describe('safeReturnPath', () => {
  it('keeps our dashboard paths and drops everything else for Home', () => {
    expect(safeReturnPath('/dashboard/refunds?status=failed')).toBe('/dashboard/refunds?status=failed');
    expect(safeReturnPath('http://127.0.0.1:3000/dashboard/payments?page=2')).toBe('/dashboard/payments?page=2');
    expect(safeReturnPath('/dashboard?//evil.example.com')).toBe('/dashboard');
    expect(safeReturnPath('/dashboard\r\nLocation: https://evil.example.com')).toBe('/dashboard');
    expect(safeReturnPath(['/dashboard/settings', '/dashboard/refunds'])).toBe('/dashboard/settings');
  });
});
