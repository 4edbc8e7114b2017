import type { ReactNode } from 'react';

/** One figure of Home: label, value, and a line of context under it. */
export function StatCard({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl bg-white px-4 py-4 shadow-sm ring-1 ring-gray-200 sm:px-5">
      <dt className="text-sm font-medium text-gray-600">{label}</dt>
      {/* a phone's half-width card: "US$1,633.39" in a smaller size, and wrapped rather than spilling out */}
      <dd className="mt-1 text-xl font-semibold tracking-tight [overflow-wrap:anywhere] text-gray-900 tabular-nums sm:text-2xl">
        {value}
      </dd>
      {detail && <dd className="mt-0.5 text-xs text-gray-600">{detail}</dd>}
    </div>
  );
}
