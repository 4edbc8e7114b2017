import type { Method } from './method-tabs';

const WHAT_IT_TAKES_NO_MORE: Record<Exclude<Method, 'usdc'>, string> = {
  card: 'cards',
  interac: 'Interac transfers',
};

/**
 * What replaces the card and Interac forms once a checkout has had as many declines as the hosted page takes
 * (lib/payments/pay.ts): the last decline's reason, why nothing more can be tried here, and the way back.
 * An alert, so the customer hears it as it replaces the form they were using.
 */
export function DeclinesExhausted({
  method,
  reason,
  merchantName,
  backUrl,
  usdcOffered,
}: {
  method: Exclude<Method, 'usdc'>;
  reason?: string;
  merchantName: string;
  backUrl: string;
  usdcOffered: boolean;
}) {
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 px-4 py-4 text-sm text-red-900">
      <div role="alert">
        <h3 className="text-base font-semibold">This checkout can’t take more {WHAT_IT_TAKES_NO_MORE[method]}</h3>
        <p className="mt-1">
          {reason ? `${reason} ` : ''}
          It has had too many declined payments, so nothing more can be tried here
          {usdcOffered ? ' but USDC' : ''}. Nothing was paid.
        </p>
      </div>
      <a
        href={backUrl}
        className="mt-4 inline-flex h-11 items-center justify-center rounded-lg bg-accent-600 px-5 text-sm font-medium text-white shadow-sm hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
      >
        Return to {merchantName}
      </a>
    </div>
  );
}
