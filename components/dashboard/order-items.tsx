import type { CheckoutItem } from '@/lib/generated/prisma/client';
import { formatMoney } from '@/lib/dashboard/format';

/** A session's lines, shipping, tax and total, as the customer saw them. */
export function OrderItems({
  items,
  currency,
  shippingAmount,
  taxAmount,
  amount,
}: {
  items: CheckoutItem[];
  currency: string;
  shippingAmount: number;
  taxAmount: number;
  amount: number;
}) {
  return (
    <ul className="divide-y divide-gray-100 text-sm">
      {items.map((item) => (
        <li key={item.position} className="flex justify-between gap-4 px-5 py-3">
          <span className="min-w-0 break-words text-gray-900">
            {item.name}
            <span className="block text-xs text-gray-600">
              {item.quantity} × {formatMoney(item.unitAmount, currency)}
            </span>
          </span>
          <span className="shrink-0 tabular-nums">{formatMoney(item.quantity * item.unitAmount, currency)}</span>
        </li>
      ))}
      <li className="flex justify-between px-5 py-2 text-gray-600">
        <span>Shipping</span>
        <span className="tabular-nums">{formatMoney(shippingAmount, currency)}</span>
      </li>
      <li className="flex justify-between px-5 py-2 text-gray-600">
        <span>Tax</span>
        <span className="tabular-nums">{formatMoney(taxAmount, currency)}</span>
      </li>
      <li className="flex justify-between px-5 py-3 font-semibold text-gray-900">
        <span>Total</span>
        <span className="tabular-nums">{formatMoney(amount, currency)}</span>
      </li>
    </ul>
  );
}
