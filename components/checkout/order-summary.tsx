import { classNames } from '@/components/ui/class-names';
import type { CheckoutLine, HostedCheckout } from './checkout-view';

type OrderSummaryProps = {
  lines: CheckoutLine[];
  charges: HostedCheckout['charges'];
  totalLabel: string;
};

/** The line items, shipping, tax and total. Merchant-given names are plain text: React escapes them. */
export function OrderSummary({ lines, charges, totalLabel }: OrderSummaryProps) {
  return (
    <div className="text-sm">
      <ul className="divide-y divide-gray-200">
        {lines.map((line, index) => (
          <li key={index} className="flex items-start justify-between gap-4 py-3">
            <div className="min-w-0">
              <p className="font-medium break-words text-gray-900">{line.name}</p>
              {line.description && (
                <p className="mt-0.5 break-words whitespace-pre-line text-gray-600">{line.description}</p>
              )}
              <p className="mt-0.5 text-gray-600">
                {line.quantity > 1 ? `Qty ${line.quantity} · ${line.unitLabel} each` : `Qty 1`}
              </p>
            </div>
            <p className="shrink-0 font-medium text-gray-900">{line.amountLabel}</p>
          </li>
        ))}
      </ul>
      <dl className="space-y-2 border-t border-gray-200 pt-3">
        {charges && (
          <>
            <Row term="Subtotal" value={charges.subtotalLabel} />
            <Row term="Shipping" value={charges.shippingLabel ?? 'Free'} />
            <Row term="Tax" value={charges.taxLabel ?? '—'} />
          </>
        )}
        <div
          className={classNames(
            'flex justify-between text-base font-semibold text-gray-900',
            charges && 'border-t border-gray-200 pt-3',
          )}
        >
          <dt>Total</dt>
          <dd>{totalLabel}</dd>
        </div>
      </dl>
    </div>
  );
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between text-gray-600">
      <dt>{term}</dt>
      <dd className="text-gray-900">{value}</dd>
    </div>
  );
}
