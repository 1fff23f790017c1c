import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@cantoo/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import type { Locale } from '@tankportal/shared/constants';
import { itemDescription } from './e-invoice.ts';
import type { InvoiceDocument } from './invoice-document.ts';

/**
 * The invoice as people read it: one A4 document (DIN 5008 address window) with the seller, the
 * buyer, the items with their devices and periods, the totals and how to pay, the seller's legal
 * details in every page's footer. The font is embedded (PDF/A requires it): DejaVu Sans, which
 * has every Latin letter and the euro sign.
 */

const LABELS = {
  de: {
    invoice: 'Rechnung',
    device: 'Gerät',
    number: 'Rechnungsnummer',
    date: 'Rechnungsdatum',
    due: 'Fällig am',
    customer: 'Kundennummer',
    order: 'Bestellnummer',
    leitweg: 'Leitweg-ID',
    servicePeriod: 'Leistungszeitraum',
    position: 'Pos.',
    description: 'Leistung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    total: 'Gesamt',
    period: 'Zeitraum',
    net: 'Nettobetrag',
    vat: 'Umsatzsteuer',
    gross: 'Rechnungsbetrag',
    payment: (due: string, number: string) =>
      `Bitte überweisen Sie den Rechnungsbetrag ohne Abzug bis zum ${due} unter Angabe der Rechnungsnummer ${number}.`,
    vatId: 'USt-IdNr.',
    taxNumber: 'Steuernummer',
    directors: 'Geschäftsführung',
    page: (page: number, pages: number) => `Seite ${page} von ${pages}`,
    phone: 'Tel.',
  },
  en: {
    invoice: 'Invoice',
    device: 'Device',
    number: 'Invoice number',
    date: 'Invoice date',
    due: 'Due date',
    customer: 'Customer number',
    order: 'Order number',
    leitweg: 'Leitweg-ID',
    servicePeriod: 'Service period',
    position: 'No.',
    description: 'Service',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    total: 'Total',
    period: 'Period',
    net: 'Net amount',
    vat: 'VAT',
    gross: 'Invoice total',
    payment: (due: string, number: string) =>
      `Please transfer the invoice total without deduction by ${due}, quoting invoice number ${number}.`,
    vatId: 'VAT ID',
    taxNumber: 'Tax number',
    directors: 'Managing directors',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
    phone: 'Phone',
  },
} satisfies Record<Locale, unknown>;

const MM = 72 / 25.4;
const A4 = { width: 210 * MM, height: 297 * MM };
const LEFT = 25 * MM;
const RIGHT = A4.width - 20 * MM;
/** Content stops above the footer. */
const BOTTOM = 32 * MM;
const GREY = rgb(0.35, 0.35, 0.35);
const LINE = rgb(0.75, 0.75, 0.75);
/** Table columns: their right edges (numbers are right-aligned), the description's left edge. */
const COLUMNS = {
  position: LEFT,
  description: LEFT + 12 * MM,
  quantity: 137 * MM,
  unitPrice: 162 * MM,
  total: RIGHT,
};

const load = createRequire(import.meta.url);
let fontFiles: Promise<[Buffer, Buffer]> | undefined;
const fonts = () =>
  (fontFiles ??= Promise.all([
    readFile(load.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    readFile(load.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]));

/** Writes pages top-down, starting a new page (with the table header) when one is full. */
class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  readonly pdf: PDFDocument;
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly onNewPage: (writer: Writer) => void;
  constructor(pdf: PDFDocument, regular: PDFFont, bold: PDFFont, onNewPage: (writer: Writer) => void) {
    this.pdf = pdf;
    this.regular = regular;
    this.bold = bold;
    this.onNewPage = onNewPage;
  }

  newPage() {
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.pages.push(this.page);
    this.y = A4.height - 25 * MM;
  }

  /** Makes room for `height` points, on a new page if this one has not got it. */
  need(height: number) {
    if (this.y - height >= BOTTOM) return;
    this.newPage();
    this.onNewPage(this);
  }

  text(
    text: string,
    x: number,
    options: { size?: number; bold?: boolean; color?: typeof GREY; alignRight?: boolean } = {},
  ) {
    const size = options.size ?? 9;
    const font = options.bold ? this.bold : this.regular;
    const left = options.alignRight ? x - font.widthOfTextAtSize(text, size) : x;
    this.page.drawText(text, { x: left, y: this.y, size, font, color: options.color ?? rgb(0, 0, 0) });
  }

  rule(y = this.y) {
    this.page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.5, color: LINE });
  }

  /** Splits text into lines no wider than `width` at `size` (words longer than a line are cut). */
  wrap(text: string, width: number, size = 9, bold = false): string[] {
    const font = bold ? this.bold : this.regular;
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
        else {
          lines.push(line);
          line = word;
        }
      }
      lines.push(line);
    }
    return lines;
  }
}

/** Renders the invoice document as a PDF in the reader's language (item names stay as billed). */
export async function renderInvoicePdf(document: InvoiceDocument, locale: Locale): Promise<Uint8Array> {
  const labels = LABELS[locale];
  const money = new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    style: 'currency',
    currency: 'EUR',
  });
  const euros = (value: string) => money.format(value as `${number}`);
  const day = (value: string) =>
    locale === 'de' ? value.split('-').reverse().join('.') : value.split('-').reverse().join('/');
  const { seller, buyer } = document;

  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const [regularBytes, boldBytes] = await fonts();
  const regular = await pdf.embedFont(regularBytes, { subset: true });
  const bold = await pdf.embedFont(boldBytes, { subset: true });
  pdf.setTitle(`${labels.invoice} ${document.number}`);
  pdf.setAuthor(seller.name);
  pdf.setCreator('Tank Portal');
  pdf.setLanguage(locale === 'de' ? 'de-DE' : 'en-GB');

  const tableHeader = (writer: Writer) => {
    writer.text(labels.position, COLUMNS.position, { bold: true });
    writer.text(labels.description, COLUMNS.description, { bold: true });
    writer.text(labels.quantity, COLUMNS.quantity, { bold: true, alignRight: true });
    writer.text(labels.unitPrice, COLUMNS.unitPrice, { bold: true, alignRight: true });
    writer.text(labels.total, COLUMNS.total, { bold: true, alignRight: true });
    writer.rule(writer.y - 2.5 * MM);
    writer.y -= 7 * MM;
  };
  const writer = new Writer(pdf, regular, bold, tableHeader);
  writer.newPage();

  // The letterhead: the seller, right-aligned.
  writer.text(seller.name, RIGHT, { size: 13, bold: true, alignRight: true });
  for (const line of [
    seller.street,
    `${seller.postalCode} ${seller.city}`,
    `${labels.phone} ${seller.phone}`,
    seller.email,
  ]) {
    writer.y -= 4.5 * MM;
    writer.text(line, RIGHT, { alignRight: true, color: GREY });
  }

  // The address window (DIN 5008 form B: 45 mm from the top), with the sender's line above it.
  writer.y = A4.height - 47 * MM;
  writer.text(`${seller.name} · ${seller.street} · ${seller.postalCode} ${seller.city}`, LEFT, {
    size: 6.5,
    color: GREY,
  });
  writer.y -= 6 * MM;
  const town = [buyer.postalCode, buyer.city].filter(Boolean).join(' ');
  // DIN 5008: a foreign country's name in capitals as the last line.
  const countryName =
    new Intl.DisplayNames([locale], { type: 'region' }).of(buyer.countryCode) ?? buyer.countryCode;
  const foreign = buyer.countryCode !== seller.countryCode ? [countryName.toUpperCase()] : [];
  for (const line of [buyer.name, ...buyer.streetLines, town, ...foreign].filter(Boolean)) {
    writer.text(line, LEFT, { size: 10 });
    writer.y -= 4.5 * MM;
  }

  // The facts block beside the window.
  writer.y = A4.height - 53 * MM;
  const facts: [string, string][] = [
    [labels.number, document.number],
    [labels.date, day(document.issueDate)],
    [labels.due, day(document.dueDate)],
    [labels.customer, buyer.debtorIdent],
    ...(buyer.orderNumber ? [[labels.order, buyer.orderNumber] as [string, string]] : []),
    ...(buyer.leitwegId ? [[labels.leitweg, buyer.leitwegId] as [string, string]] : []),
    [labels.servicePeriod, `${day(document.period.begin)} – ${day(document.period.end)}`],
  ];
  for (const [label, value] of facts) {
    writer.text(label, 118 * MM, { color: GREY });
    writer.text(value, RIGHT, { alignRight: true });
    writer.y -= 4.5 * MM;
  }

  writer.y = A4.height - 108 * MM;
  writer.text(`${labels.invoice} ${document.number}`, LEFT, { size: 15, bold: true });
  writer.y -= 10 * MM;
  tableHeader(writer);

  const descriptionWidth = COLUMNS.quantity - 18 * MM - COLUMNS.description;
  for (const item of document.items) {
    const nameLines = writer.wrap(item.name, descriptionWidth, 9, true);
    const detailLines = writer.wrap(
      [
        itemDescription(item, labels.device),
        `${labels.period} ${day(item.periodBegin)} – ${day(item.periodEnd)}`,
      ]
        .filter(Boolean)
        .join('\n'),
      descriptionWidth,
      8,
    );
    writer.need((nameLines.length + detailLines.length) * 4 * MM + 3 * MM);
    writer.text(String(item.sequence), COLUMNS.position);
    writer.text(String(item.quantity), COLUMNS.quantity, { alignRight: true });
    writer.text(euros(item.price), COLUMNS.unitPrice, { alignRight: true });
    writer.text(euros(item.totalPrice), COLUMNS.total, { alignRight: true });
    for (const line of nameLines) {
      writer.text(line, COLUMNS.description, { bold: true });
      writer.y -= 4 * MM;
    }
    for (const line of detailLines) {
      writer.text(line, COLUMNS.description, { size: 8, color: GREY });
      writer.y -= 3.6 * MM;
    }
    writer.y -= 2.5 * MM;
  }

  writer.need(40 * MM);
  writer.rule(writer.y + 2 * MM);
  writer.y -= 3 * MM;
  const vatPercent = new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    maximumFractionDigits: 2,
  }).format(document.vatRate as `${number}`);
  for (const [label, value, strong] of [
    [labels.net, document.totalNet, false],
    [`${labels.vat} ${vatPercent} %`, document.totalVat, false],
    [labels.gross, document.totalGross, true],
  ] as const) {
    writer.text(label, COLUMNS.unitPrice, { alignRight: true, bold: strong });
    writer.text(euros(value), COLUMNS.total, { alignRight: true, bold: strong });
    writer.y -= 5 * MM;
  }

  writer.y -= 6 * MM;
  const bank = [
    `IBAN ${seller.iban.replace(/(.{4})(?=.)/g, '$1 ')}`,
    seller.bic && `BIC ${seller.bic}`,
    seller.bankName,
  ]
    .filter(Boolean)
    .join(' · ');
  for (const line of [
    ...writer.wrap(labels.payment(day(document.dueDate), document.number), RIGHT - LEFT),
    bank,
  ]) {
    writer.need(5 * MM);
    writer.text(line, LEFT);
    writer.y -= 4.5 * MM;
  }

  // Every page's footer: the seller's legal details and the page number.
  const footer = [
    [seller.name, seller.street, `${seller.postalCode} ${seller.city}`].join(' · '),
    [
      seller.vatId && `${labels.vatId} ${seller.vatId}`,
      seller.taxNumber && `${labels.taxNumber} ${seller.taxNumber}`,
      seller.register,
      seller.managingDirectors && `${labels.directors}: ${seller.managingDirectors}`,
    ]
      .filter(Boolean)
      .join(' · '),
  ]
    .filter(Boolean)
    .flatMap((line) => writer.wrap(line, RIGHT - LEFT, 7))
    .slice(0, 3);
  writer.pages.forEach((page, index) => {
    writer.page = page;
    writer.rule(20 * MM);
    footer.forEach((line, lineIndex) => {
      writer.y = 16 * MM - lineIndex * 3.5 * MM;
      writer.text(line, LEFT, { size: 7, color: GREY });
    });
    writer.y = 9 * MM;
    writer.text(labels.page(index + 1, writer.pages.length), RIGHT, {
      size: 7,
      color: GREY,
      alignRight: true,
    });
  });

  return pdf.save();
}
