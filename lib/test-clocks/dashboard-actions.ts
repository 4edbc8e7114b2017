import { parse } from '@/lib/core/parse';
import type { RequestContext } from '@/lib/core/context';
import { PREVIEW_COUNT_LIMIT } from './repository';
import { advanceTestClockInput, MAX_ADVANCE_SECONDS } from './schemas';
import { advanceTestClock, previewTestClockAdvance, type AdvancePreview } from './service';
import { refused, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

// Developers → Test clock: the connection's clock, advanced through the same service as
// POST /v1/test-helpers/clock/advance, each advance first previewed ("3 open sessions will expire") and
// confirmed.

export type TestClockField = 'amount';

export const ADVANCE_UNITS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
export type AdvanceUnit = keyof typeof ADVANCE_UNITS;

/** The preview's answer: what an advance by `seconds` will do, for the confirmation to say. */
export type AdvancePreviewState =
  FormState<TestClockField> | { status: 'preview'; seconds: number; label: string; effects: string };

const AMOUNT_ERROR = `Enter a whole number: from 1 minute up to ${MAX_ADVANCE_SECONDS / 86_400} days at a time.`;

/** The seconds of an advance typed as an amount and a unit ("90", "minutes"), or null when it is not one. */
export function advanceSeconds(amountText: string, unit: string): number | null {
  const amount = amountText.trim().replace(/[\s,]/g, '');
  if (!/^\d{1,9}$/.test(amount) || !(unit in ADVANCE_UNITS)) return null;
  const seconds = Number(amount) * ADVANCE_UNITS[unit as AdvanceUnit];
  return seconds >= 1 && seconds <= MAX_ADVANCE_SECONDS ? seconds : null;
}

/**
 * The first step of an advance: a preset (`preset`, in seconds) or the amount typed, and what moving the clock
 * that far will do, counted now. Nothing moves until the merchant confirms.
 */
export async function previewAdvanceFromDashboard(
  context: RequestContext,
  form: { preset: string; amount: string; unit: string },
): Promise<AdvancePreviewState> {
  const preset = /^\d+$/.test(form.preset) ? Number(form.preset) : null;
  const seconds = preset !== null && preset <= MAX_ADVANCE_SECONDS ? preset : advanceSeconds(form.amount, form.unit);
  if (seconds === null || seconds < 1) return refused({ amount: AMOUNT_ERROR }, { amount: form.amount });
  const preview = await previewTestClockAdvance(context, seconds);
  return { status: 'preview', seconds, label: describeSeconds(seconds), effects: describePreview(preview) };
}

/** "3 open sessions will expire, 2 refunds will finish and 1 webhook retry will come due." */
export function describePreview(preview: AdvancePreview): string {
  const count = (n: number, one: string, many: string) =>
    n >= PREVIEW_COUNT_LIMIT
      ? `${PREVIEW_COUNT_LIMIT.toLocaleString('en-US')} or more ${many}`
      : `${n} ${n === 1 ? one : many}`;
  const parts = [
    preview.sessions > 0 && `${count(preview.sessions, 'open session', 'open sessions')} will expire`,
    preview.refunds > 0 && `${count(preview.refunds, 'refund', 'refunds')} will finish`,
    preview.deliveries > 0 && `${count(preview.deliveries, 'webhook retry', 'webhook retries')} will come due`,
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0)
    return 'Nothing waits on the clock: no open session expires, no refund finishes and no webhook retry comes due.';
  const sentence = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** Advances by `secondsText` (confirmed after its preview); the answer says how far the clock is now. */
export async function advanceTestClockFromDashboard(
  context: RequestContext,
  secondsText: string,
): Promise<FormState<TestClockField>> {
  const seconds = /^\d+$/.test(secondsText.trim()) ? Number(secondsText.trim()) : Number.NaN;
  try {
    const { seconds: checked } = parse(advanceTestClockInput, { seconds }, { seconds: AMOUNT_ERROR });
    const clock = await advanceTestClock(context, checked);
    return {
      status: 'ok',
      message: `Clock advanced by ${describeSeconds(checked)}. It is now ${describeSeconds(clock.offsetSeconds)} ahead.`,
    };
  } catch (error) {
    return toFormState(error, {});
  }
}

/** 90061 → "1 day 1 hour 1 minute 1 second"; 0 → "0 seconds". */
export function describeSeconds(total: number): string {
  const parts: string[] = [];
  let rest = total;
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : '0 seconds';
}
