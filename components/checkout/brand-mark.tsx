import { CardIcon } from '@/components/ui/icons';
import type { CardBrand } from '@/lib/payments/cards';

const MARKS: Record<Exclude<CardBrand, 'unknown'>, { label: string; className: string }> = {
  visa: { label: 'VISA', className: 'bg-blue-800 text-white italic' },
  mastercard: { label: 'Mastercard', className: 'bg-gray-900 text-white' },
  amex: { label: 'AMEX', className: 'bg-sky-700 text-white' },
  discover: { label: 'DISCOVER', className: 'bg-orange-600 text-white' },
};

const NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Card',
};

/** The brand recognised from the digits typed so far, at the end of the card number field. */
export function BrandMark({ brand }: { brand: CardBrand }) {
  if (brand === 'unknown') return <CardIcon className="size-5 text-gray-500" />;
  const mark = MARKS[brand];
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-[10px] font-bold tracking-wide ${mark.className}`}
      title={NAMES[brand]}
    >
      <span aria-hidden="true">{mark.label}</span>
      <span className="sr-only">{NAMES[brand]}</span>
    </span>
  );
}
