import QRCode from 'qrcode';

/** The link's QR code as an SVG data URL, drawn here: the page makes no network call for it. */
export async function paymentLinkQrDataUrl(url: string): Promise<string> {
  const svg = await QRCode.toString(url, {
    type: 'svg',
    margin: 2,
    errorCorrectionLevel: 'M',
    color: { dark: '#111827', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
