import type { ReactNode } from 'react';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { CheckCircleIcon } from '@/components/ui/icons';

/** The receipt: a check mark, amount, method, date and payment id, and that the page can be closed. */
export function PaymentLinkReceipt({
  merchantName,
  linkName,
  amountLabel,
  methodLabel,
  paidAt,
  paymentId,
  receiptEmail,
}: {
  merchantName: string;
  linkName: string;
  amountLabel: string;
  methodLabel: string;
  paidAt: Date;
  paymentId: string;
  /** the payment's customer_email: where a receipt would be sent, were this not a sandbox */
  receiptEmail: string | null;
}) {
  return (
    <div className="text-center">
      <CheckCircleIcon className="mx-auto size-14 text-green-600" />
      <h1 className="mt-3 text-xl font-semibold text-gray-900">Payment received</h1>
      <p className="mt-1 text-sm break-words text-gray-600">
        {merchantName} received your payment for {linkName}.
      </p>
      <dl className="mt-6 divide-y divide-gray-100 rounded-xl text-left text-sm ring-1 ring-gray-200">
        <ReceiptLine label="Amount" value={<span className="font-semibold">{amountLabel}</span>} />
        <ReceiptLine label="Paid with" value={methodLabel} />
        <ReceiptLine label="Date" value={<RelativeTime value={paidAt} exact />} />
        <ReceiptLine label="Payment ID" value={<code className="font-mono text-xs break-all">{paymentId}</code>} />
      </dl>
      {receiptEmail && (
        <p className="mt-6 text-sm break-words text-gray-600">
          A receipt would be sent to <span className="font-medium text-gray-900">{receiptEmail}</span> (this sandbox
          sends no e-mail).
        </p>
      )}
      <p className="mt-6 text-sm text-gray-600">You can close this page.</p>
    </div>
  );
}

function ReceiptLine({ label, value }: { label: string; value: ReactNode }) {
  return (
    // a value too wide for the row (the payment id on a phone) moves under its label, still whole
    <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3">
      <dt className="shrink-0 text-gray-600">{label}</dt>
      <dd className="ml-auto max-w-full text-right text-gray-900">{value}</dd>
    </div>
  );
}
