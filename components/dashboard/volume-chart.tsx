import type { DayFigures } from '@/lib/dashboard/overview';
import { formatMoney } from '@/lib/core/money';
import { shortZoneName } from '@/lib/core/time-zone';

// Volume and refunds per day as HTML bars: crisp at any width (an SVG scaled to a phone shrinks its
// text), each day's numbers in its tooltip, and the same numbers in a table for screen readers.

function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A round ceiling for the axis: 1, 2 or 5 times a power of ten, in cents. */
function niceMax(value: number): number {
  if (value <= 0) return 1000;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function compactMoney(amount: number, currency: string): string {
  if (amount < 100_000) return formatMoney(amount, currency).replace(/\.00$/, '');
  const symbol = currency === 'CAD' ? 'CA$' : currency === 'USD' ? 'US$' : '';
  return `${symbol}${new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(amount / 100)}`;
}

/** `days` are calendar days in `timeZone` (lib/dashboard/overview.ts), the zone the legend names. */
export function VolumeChart({ days, currency, timeZone }: { days: DayFigures[]; currency: string; timeZone: string }) {
  const max = niceMax(Math.max(...days.map((day) => Math.max(day.grossVolume, day.refundedAmount))));
  const height = (amount: number) => (amount <= 0 ? '0%' : `max(${(amount / max) * 100}%, 2px)`);
  const ticks = [max, max / 2, 0];
  const labelled = new Set([0, Math.floor(days.length / 2), days.length - 1]);

  return (
    <figure>
      <figcaption className="sr-only">
        Gross volume and refunds per day, last {days.length} days, in {currency}, days in {timeZone}
      </figcaption>
      <div className="relative h-52">
        {ticks.map((tick, index) => (
          <div
            key={tick}
            className="absolute inset-x-0 flex items-center gap-2"
            style={{ top: `${index * 50}%`, transform: 'translateY(-50%)' }}
            aria-hidden="true"
          >
            <span className="w-14 shrink-0 text-right text-[11px] text-gray-500 tabular-nums">
              {compactMoney(tick, currency)}
            </span>
            <span className="h-px flex-1 bg-gray-200" />
          </div>
        ))}
        <div className="absolute inset-y-0 right-0 left-16 flex items-end gap-0.5 sm:gap-1" aria-hidden="true">
          {days.map((day) => (
            <div
              key={day.day}
              title={`${dayLabel(day.day)}: ${formatMoney(day.grossVolume, currency)} from ${day.succeededCount} payment${day.succeededCount === 1 ? '' : 's'}; ${formatMoney(day.refundedAmount, currency)} refunded (${day.refundCount})`}
              className="flex h-full min-w-0 flex-1 items-end justify-center gap-px rounded-sm hover:bg-gray-100/70"
            >
              <div className="w-full max-w-3 rounded-t-sm bg-accent-600" style={{ height: height(day.grossVolume) }} />
              <div
                className="w-full max-w-3 rounded-t-sm bg-amber-400"
                style={{ height: height(day.refundedAmount) }}
              />
            </div>
          ))}
        </div>
      </div>
      <div className="relative mt-2 ml-16 h-4 text-[11px] text-gray-500" aria-hidden="true">
        {days.map((day, index) =>
          labelled.has(index) ? (
            <span
              key={day.day}
              className="absolute whitespace-nowrap"
              style={
                index === 0
                  ? { left: 0 }
                  : index === days.length - 1
                    ? { right: 0 }
                    : { left: `${((index + 0.5) / days.length) * 100}%`, transform: 'translateX(-50%)' }
              }
            >
              {dayLabel(day.day)}
            </span>
          ) : null,
        )}
      </div>
      <div className="mt-3 flex flex-wrap gap-4 text-xs text-gray-600">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="size-2.5 rounded-sm bg-accent-600" />
          Gross volume
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="size-2.5 rounded-sm bg-amber-400" />
          Refunds
        </span>
        <span title={timeZone}>
          Days in {timeZone === 'UTC' ? 'UTC' : `${timeZone.replaceAll('_', ' ')} time (${shortZoneName(timeZone)})`}
        </span>
      </div>
      {/* a table cannot clip itself, so the wrapper hides it */}
      <div className="sr-only">
        <table>
          <caption>Per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Gross volume</th>
              <th scope="col">Payments</th>
              <th scope="col">Refunded</th>
              <th scope="col">Refunds</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{dayLabel(day.day)}</th>
                <td>{formatMoney(day.grossVolume, currency)}</td>
                <td>{day.succeededCount}</td>
                <td>{formatMoney(day.refundedAmount, currency)}</td>
                <td>{day.refundCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
