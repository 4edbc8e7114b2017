'use client';

import { useRef, type KeyboardEvent } from 'react';
import { classNames } from '@/components/ui/class-names';
import { BankIcon, CardIcon, CoinIcon } from '@/components/ui/icons';

export type Method = 'card' | 'usdc' | 'interac';

export const METHOD_LABELS: Record<Method, string> = { card: 'Card', usdc: 'USDC', interac: 'Interac' };
const METHOD_ICONS = { card: CardIcon, usdc: CoinIcon, interac: BankIcon };

export const tabId = (method: Method) => `pay-tab-${method}`;
export const panelId = (method: Method) => `pay-panel-${method}`;

/** One tab per offered method, keyboard-operable as the ARIA tabs pattern says (arrows, Home, End). */
export function MethodTabs({
  methods,
  active,
  onChange,
}: {
  methods: Method[];
  active: Method;
  onChange: (method: Method) => void;
}) {
  const tabs = useRef<Partial<Record<Method, HTMLButtonElement | null>>>({});

  function onKeyDown(event: KeyboardEvent) {
    const index = methods.indexOf(active);
    const next =
      event.key === 'ArrowRight'
        ? methods[(index + 1) % methods.length]
        : event.key === 'ArrowLeft'
          ? methods[(index - 1 + methods.length) % methods.length]
          : event.key === 'Home'
            ? methods[0]
            : event.key === 'End'
              ? methods[methods.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    onChange(next);
    tabs.current[next]?.focus();
  }

  return (
    <div
      role="tablist"
      aria-label="Payment method"
      onKeyDown={onKeyDown}
      className="grid gap-2"
      style={{ gridTemplateColumns: `repeat(${methods.length}, minmax(0, 1fr))` }}
    >
      {methods.map((method) => {
        const Icon = METHOD_ICONS[method];
        const selected = method === active;
        return (
          <button
            key={method}
            ref={(element) => {
              tabs.current[method] = element;
            }}
            type="button"
            role="tab"
            id={tabId(method)}
            aria-selected={selected}
            aria-controls={panelId(method)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(method)}
            className={classNames(
              'flex flex-col items-start gap-1 rounded-lg border px-3 py-2.5 text-left text-sm font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600',
              selected
                ? 'border-accent-600 bg-accent-50 text-accent-700 ring-1 ring-accent-600'
                : 'border-gray-300 bg-white text-gray-700 hover:bg-gray-50',
            )}
          >
            <Icon className="size-5" />
            {METHOD_LABELS[method]}
          </button>
        );
      })}
    </div>
  );
}
