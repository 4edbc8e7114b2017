import { CopyButton } from '@/components/ui/copy-button';

/** The link's address to copy or open, and its QR code (an SVG drawn on the server) to print or download. */
export function SharePaymentLink({ url, qrDataUrl, linkId, active }: { url: string; qrDataUrl: string; linkId: string; active: boolean }) {
  return (
    <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1 space-y-3">
        <label htmlFor="payment-link-url" className="block text-sm font-medium text-gray-700">
          Link
        </label>
        <div className="flex gap-2">
          <input
            id="payment-link-url"
            readOnly
            value={url}
            className="h-10 min-w-0 flex-1 rounded-lg border border-gray-300 bg-gray-50 px-3 font-mono text-xs text-gray-900 focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600"
          />
          <CopyButton text={url} label="Copy link" />
        </div>
        <p className="text-sm text-gray-600">
          {active
            ? 'Share it by e-mail, chat or social media, or print the QR code. Every customer who pays gets their own order.'
            : 'This link is deactivated: its page tells customers it is no longer available.'}{' '}
          <a href={url} target="_blank" rel="noopener" className="font-medium text-accent-700 underline-offset-2 hover:underline">
            Open the page
          </a>
        </p>
      </div>
      <figure className="shrink-0 self-center text-center sm:self-start">
        {/* eslint-disable-next-line @next/next/no-img-element -- a data: SVG drawn on the server; there is nothing to optimise */}
        <img src={qrDataUrl} alt={`QR code of ${url}`} width={144} height={144} className="mx-auto size-36 rounded-lg ring-1 ring-gray-200" />
        <figcaption className="mt-2">
          <a href={qrDataUrl} download={`${linkId}-qr.svg`} className="text-sm font-medium text-accent-700 underline-offset-2 hover:underline">
            Download QR code
          </a>
        </figcaption>
      </figure>
    </div>
  );
}
