import { TEST_CARDS } from '@/lib/payments/cards';
import { formatCardNumber } from './card-number';

/** The sandbox's test cards (/docs#testing), each one click away from the card number field. */
export function TestCardsHint({ onUse, disabled }: { onUse: (number: string) => void; disabled: boolean }) {
  return (
    <details open className="group rounded-lg border border-amber-200 bg-amber-50 text-sm text-amber-950">
      <summary className="cursor-pointer px-3 py-2 font-medium select-none">Sandbox test cards</summary>
      <ul className="space-y-1 px-3 pb-3">
        {TEST_CARDS.map((card) => (
          <li key={card.number} className="flex items-center justify-between gap-3">
            <span className="min-w-0">
              <span className="font-mono whitespace-nowrap">{formatCardNumber(card.number)}</span>
              <span className="block text-xs text-amber-900">{card.description}</span>
            </span>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onUse(card.number)}
              aria-label={`Use test card ${formatCardNumber(card.number)}`}
              className="shrink-0 rounded-md px-2 py-1 text-xs font-semibold text-amber-950 underline underline-offset-2 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-700 disabled:opacity-60"
            >
              Use
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
