import qrcode from 'qrcode-generator';

/**
 * A text as a QR code, an SVG image in a data URL: the page shows it as an image without a QR
 * library in the browser bundle, and an SVG stays sharp at any size. Error correction M, as the
 * authenticator apps' own examples use.
 */
export function qrCodeDataUrl(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const svg = qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
