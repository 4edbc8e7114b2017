import { CopyButton } from '@/components/ui/copy-button';
import { Notice } from '@/components/ui/notice';

/** The link's address in full, to copy or open, and its QR code (an SVG drawn on the server) to download. */
export function SharePaymentLink({
  url,
  qrDataUrl,
  linkId,
  active,
}: {
  url: string;
  qrDataUrl: string;
  linkId: string;
  active: boolean;
}) {
  return (
    <div className="space-y-4">
      {!active && (
        <Notice tone="warning">
          This link is deactivated: its page tells customers it is no longer available, and nobody can pay through it.
        </Notice>
      )}
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-3">
          <p id="payment-link-url-label" className="text-sm font-medium text-gray-700">
            Link
          </p>
          <p
            aria-labelledby="payment-link-url-label"
            data-testid="payment-link-url"
            className="rounded-lg border border-gray-200 bg-gray-50 px-3 py-2.5 font-mono text-sm break-all text-gray-900"
          >
            {url}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <CopyButton text={url} label="Copy link" />
            <a
              href={url}
              target="_blank"
              rel="noopener"
              className="inline-flex h-10 items-center rounded-lg px-3 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
            >
              Open the page
            </a>
          </div>
          {active && (
            <p className="text-sm text-gray-600">
              Share it by e-mail, chat or social media, or print the QR code. Every customer who pays gets an order of
              their own.
            </p>
          )}
        </div>
        <figure className="shrink-0 self-center text-center sm:self-start">
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: SVG drawn on the server; there is nothing to optimise */}
          <img
            src={qrDataUrl}
            alt={`QR code of ${url}`}
            width={144}
            height={144}
            className="mx-auto size-36 rounded-lg ring-1 ring-gray-200"
          />
          <figcaption className="mt-2">
            <a
              href={qrDataUrl}
              download={`${linkId}-qr.svg`}
              className="text-sm font-medium text-accent-700 underline-offset-2 hover:underline"
            >
              Download QR code
            </a>
          </figcaption>
        </figure>
      </div>
    </div>
  );
}
