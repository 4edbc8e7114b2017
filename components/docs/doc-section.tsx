import type { ReactNode } from 'react';

/** A top-level part of the page: an h2 with a link to itself, so any part can be shared by URL. */
export function DocSection({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-6 border-t border-gray-200 py-10 first:border-t-0 first:pt-0"
    >
      <h2 id={`${id}-title`} className="group text-2xl font-semibold tracking-tight text-gray-900">
        {title}
        <a
          href={`#${id}`}
          className="ml-2 text-gray-400 opacity-0 group-hover:opacity-100 focus-visible:opacity-100"
          aria-label={`Link to ${title}`}
        >
          #
        </a>
      </h2>
      {lead ? <p className="mt-2 max-w-3xl text-gray-600">{lead}</p> : null}
      <div className="mt-5 space-y-4 text-[15px] leading-7 text-gray-700">{children}</div>
    </section>
  );
}

/** A table that scrolls sideways on a phone rather than squeezing its columns. */
export function DocTable({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={label}
      className="overflow-x-auto rounded-lg border border-gray-200 bg-white focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      <table className="w-full text-left text-sm">
        <thead className="bg-gray-50 text-xs uppercase tracking-wide text-gray-600">
          <tr>
            {head.map((cell) => (
              <th key={cell} scope="col" className="px-3 py-2 font-medium">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 align-top">{children}</tbody>
      </table>
    </div>
  );
}
