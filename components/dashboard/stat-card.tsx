import type { ReactNode } from 'react';

/** One figure of Home: label, value, and a line of context under it. */
export function StatCard({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <div className="@container min-w-0 rounded-xl bg-white px-4 py-4 shadow-sm ring-1 ring-gray-200 sm:px-5">
      <dt className="text-sm font-medium text-gray-600">{label}</dt>
      {/* sized to the card, so "US$999,990.00" stays on one line in a quarter of a laptop's width or half a
          phone's; an amount longer still wraps rather than spilling out */}
      <dd className="mt-1 text-[clamp(1rem,9.5cqi,1.5rem)] leading-tight font-semibold tracking-tight [overflow-wrap:anywhere] text-gray-900 tabular-nums">
        {value}
      </dd>
      {detail && <dd className="mt-0.5 text-xs text-gray-600">{detail}</dd>}
    </div>
  );
}
