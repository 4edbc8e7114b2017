'use client';

import { useState, type ReactNode } from 'react';
import { classNames } from '@/components/ui/class-names';
import { ChevronDownIcon } from '@/components/ui/icons';

/** On a phone the order summary folds away behind a toggle; from md up it is always shown. */
export function SummaryToggle({ totalLabel, children }: { totalLabel: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="order-summary"
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between rounded-lg border border-gray-200 bg-white px-4 py-3 text-sm font-medium text-gray-800 shadow-sm md:hidden"
      >
        <span className="inline-flex items-center gap-1.5">
          {open ? 'Hide order summary' : 'Show order summary'}
          <ChevronDownIcon className={classNames('size-4 transition-transform', open && 'rotate-180')} />
        </span>
        <span>{totalLabel}</span>
      </button>
      <div id="order-summary" className={classNames('mt-3 md:mt-0 md:block', open ? 'block' : 'hidden')}>
        {children}
      </div>
    </div>
  );
}
