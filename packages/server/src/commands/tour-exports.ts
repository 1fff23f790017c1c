import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@cantoo/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import type { Locale } from '@tankportal/shared/constants';
import { CONTENT_TYPES } from '../lookups/content-types.ts';
import type { StopRow, TourRow } from '../repositories/tours.ts';
import type { ExportPlan } from './export-consumption.ts';

/**
 * A tour to take along: GPX for a navigation device or app (the depot, the stops in order and back
 * as a route, each stop also a waypoint), a sheet (csv) of the stops, and the driver's sheet (PDF):
 * the stops in order with address, tank, quantity and room for the ticket's quantity and a signature.
 */

const TEXTS = {
  de: {
    position: 'Nr.',
    postalCode: 'PLZ',
    city: 'Ort',
    street: 'Straße',
    device: 'Gerät',
    deviceName: 'Gerätename',
    content: 'Inhalt',
    quantity: 'Menge (l)',
    order: 'Bestellung',
    lat: 'Breite',
    lng: 'Länge',
    delivered: 'Geliefert',
    ticket: 'Lieferschein (l)',
    signature: 'Unterschrift',
    title: 'Tourenblatt',
    day: 'Tag',
    truck: 'Fahrzeug',
    driver: 'Fahrer',
    depot: 'Depot',
    distance: 'Strecke',
    total: 'Summe',
    back: 'Zurück zum Depot',
    page: (page: number, pages: number) => `Seite ${page} von ${pages}`,
    filename: 'tour',
  },
  en: {
    position: 'No.',
    postalCode: 'Postal code',
    city: 'City',
    street: 'Street',
    device: 'Device',
    deviceName: 'Device name',
    content: 'Content',
    quantity: 'Quantity (l)',
    order: 'Order',
    lat: 'Latitude',
    lng: 'Longitude',
    delivered: 'Delivered',
    ticket: 'Ticket (l)',
    signature: 'Signature',
    title: 'Tour sheet',
    day: 'Day',
    truck: 'Truck',
    driver: 'Driver',
    depot: 'Depot',
    distance: 'Distance',
    total: 'Total',
    back: 'Back to the depot',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
    filename: 'tour',
  },
} satisfies Record<Locale, unknown>;

const contentName = (id: string | null, locale: Locale) =>
  id === null ? '' : (CONTENT_TYPES.find((type) => type.id === id)?.name[locale] ?? id);
const streetOf = ({ tank }: StopRow) => [tank.street, tank.streetNumber].filter(Boolean).join(' ');
const placeOf = ({ tank }: StopRow) => [tank.postalCode, tank.city].filter(Boolean).join(' ');

export const tourFilename = (row: TourRow) => `tour-${row.tour.day}-${row.tour.id}`;

// --- GPX -------------------------------------------------------------------------------------------

/** XML text: markup escaped, and the control characters XML 1.0 cannot hold left out. */
/** Control characters: XML 1.0 cannot hold them, a PDF would draw them as boxes. */
// eslint-disable-next-line no-control-regex -- these are the characters to leave out
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xml = (text: string) =>
  text
    .replace(NOT_IN_XML, '')
    .replace(
      /[<>&'"]/g,
      (character) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[character]!,
    );

/** GPX 1.1: a waypoint per stop with a place, and the route depot → stops → depot. */
export function tourGpx(row: TourRow, stops: StopRow[]): string {
  const placed = stops.filter(({ tank }) => tank.lat !== null && tank.lng !== null);
  const point = (tag: string, lat: number, lng: number, name: string, description: string) =>
    `  <${tag} lat="${lat.toFixed(6)}" lon="${lng.toFixed(6)}"><name>${xml(name)}</name>` +
    `<desc>${xml(description)}</desc></${tag}>`;
  const stopName = (stop: StopRow) =>
    `${stop.stop.position}. ${stop.tank.deviceName || `#${stop.tank.deviceId}`}`;
  const stopDescription = (stop: StopRow) =>
    `${[streetOf(stop), placeOf(stop)].filter(Boolean).join(', ')}; ${stop.stop.quantity} l`;
  const depot = row.depot;
  const depotPoint = (tag: string) =>
    depot.lat === null || depot.lng === null ? [] : [point(tag, depot.lat, depot.lng, depot.name, '')];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Tank Portal" xmlns="http://www.topografix.com/GPX/1/1">',
    `  <metadata><name>${xml(`${row.truck.name} ${row.tour.day}`)}</name></metadata>`,
    ...placed.map((stop) =>
      point('wpt', stop.tank.lat!, stop.tank.lng!, stopName(stop), stopDescription(stop)),
    ),
    `  <rte><name>${xml(`${row.truck.name} ${row.tour.day}`)}</name>`,
    ...[
      ...depotPoint('rtept'),
      ...placed.map((stop) =>
        point('rtept', stop.tank.lat!, stop.tank.lng!, stopName(stop), stopDescription(stop)),
      ),
      ...depotPoint('rtept'),
    ].map((line) => `  ${line}`),
    '  </rte>',
    '</gpx>',
    '',
  ].join('\n');
}

// --- the sheet -------------------------------------------------------------------------------------

/** The stops as a sheet (csv in the project's sheet writer), columns in the user's language. */
export function tourSheet(row: TourRow, stops: StopRow[], locale: Locale): ExportPlan {
  const texts = TEXTS[locale];
  async function* rows() {
    for (const stop of stops)
      yield [
        stop.stop.position,
        stop.tank.postalCode,
        stop.tank.city,
        streetOf(stop) || null,
        stop.tank.deviceId,
        stop.tank.deviceName,
        contentName(stop.tank.contentType, locale) || null,
        stop.stop.quantity,
        stop.stop.orderId,
        stop.tank.lat,
        stop.tank.lng,
        stop.stop.deliveredAt,
        stop.stop.ticketQuantity,
      ];
  }
  return {
    filename: tourFilename(row),
    sheetName: texts.title,
    columns: [
      { header: texts.position, kind: 'number', decimals: 0 },
      { header: texts.postalCode, kind: 'text' },
      { header: texts.city, kind: 'text' },
      { header: texts.street, kind: 'text' },
      { header: texts.device, kind: 'number', decimals: 0 },
      { header: texts.deviceName, kind: 'text' },
      { header: texts.content, kind: 'text' },
      { header: texts.quantity, kind: 'number', decimals: 0 },
      { header: texts.order, kind: 'number', decimals: 0 },
      { header: texts.lat, kind: 'number', decimals: 6 },
      { header: texts.lng, kind: 'number', decimals: 6 },
      { header: texts.delivered, kind: 'datetime' },
      { header: texts.ticket, kind: 'number', decimals: 0 },
    ],
    rows: rows(),
  };
}

// --- the driver's sheet (PDF) ------------------------------------------------------------------------

const MM = 72 / 25.4;
const A4 = { width: 297 * MM, height: 210 * MM }; // landscape: the columns need the width
const LEFT = 12 * MM;
const RIGHT = A4.width - 12 * MM;
const BOTTOM = 15 * MM;
const LINE = rgb(0.7, 0.7, 0.7);
const GREY = rgb(0.35, 0.35, 0.35);
/** Left edges of the columns. */
const COLUMNS = {
  position: LEFT,
  address: LEFT + 10 * MM,
  device: LEFT + 78 * MM,
  content: LEFT + 150 * MM,
  quantity: LEFT + 185 * MM,
  ticket: LEFT + 210 * MM,
  signature: LEFT + 238 * MM,
};

const load = createRequire(import.meta.url);
let fontFiles: Promise<[Buffer, Buffer]> | undefined;
const fonts = () =>
  (fontFiles ??= Promise.all([
    readFile(load.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    readFile(load.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]));

/** Cuts text to what fits `width` at `size`, with an ellipsis. */
function fit(font: PDFFont, text: string, width: number, size: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The driver's sheet: the tour's head, then a row per stop in order with room for ticket and signature. */
export async function tourPdf(row: TourRow, stops: StopRow[], locale: Locale): Promise<Uint8Array> {
  const texts = TEXTS[locale];
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const [regularBytes, boldBytes] = await fonts();
  const regular = await pdf.embedFont(regularBytes, { subset: true });
  const bold = await pdf.embedFont(boldBytes, { subset: true });
  pdf.setTitle(`${texts.title} ${row.truck.name} ${row.tour.day}`);
  pdf.setLanguage(locale);
  pdf.setCreator('Tank Portal');

  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const text = (value: string, x: number, width: number, options: { size?: number; bold?: boolean } = {}) => {
    const size = options.size ?? 9;
    const font = options.bold ? bold : regular;
    page.drawText(fit(font, value.replace(NOT_IN_XML, ''), width, size), { x, y, size, font });
  };
  const rule = () =>
    page.drawLine({
      start: { x: LEFT, y: y - 2 * MM },
      end: { x: RIGHT, y: y - 2 * MM },
      thickness: 0.5,
      color: LINE,
    });
  const header = () => {
    const columns: [keyof typeof COLUMNS, string, number][] = [
      ['position', texts.position, 9 * MM],
      ['address', `${texts.street}, ${texts.city}`, 66 * MM],
      ['device', texts.device, 70 * MM],
      ['content', texts.content, 33 * MM],
      ['quantity', texts.quantity, 24 * MM],
      ['ticket', texts.ticket, 27 * MM],
      ['signature', texts.signature, 35 * MM],
    ];
    for (const [column, label, width] of columns)
      text(label, COLUMNS[column], width, { bold: true, size: 8 });
    rule();
    y -= 8 * MM;
  };
  const newPage = () => {
    page = pdf.addPage([A4.width, A4.height]);
    pages.push(page);
    y = A4.height - 15 * MM;
  };

  newPage();
  text(
    `${texts.title} — ${row.truck.name}${row.truck.plate ? ` (${row.truck.plate})` : ''}`,
    LEFT,
    RIGHT - LEFT,
    {
      size: 14,
      bold: true,
    },
  );
  y -= 8 * MM;
  const quantity = stops.reduce((sum, stop) => sum + stop.stop.quantity, 0);
  const facts = [
    `${texts.day}: ${row.tour.day}`,
    `${texts.depot}: ${row.depot.name}`,
    `${texts.driver}: ${row.driver?.username ?? '—'}`,
    `${texts.distance}: ${row.tour.distanceKm === null ? '—' : `${row.tour.distanceKm.toLocaleString(locale)} km`}`,
    `${texts.total}: ${quantity.toLocaleString(locale)} l`,
  ];
  text(facts.join('   ·   '), LEFT, RIGHT - LEFT, { size: 9 });
  y -= 10 * MM;
  header();
  for (const stop of stops) {
    if (y - 12 * MM < BOTTOM) {
      newPage();
      header();
    }
    text(String(stop.stop.position), COLUMNS.position, 9 * MM, { bold: true });
    text(streetOf(stop), COLUMNS.address, 66 * MM);
    text(`${stop.tank.deviceName || '—'} (#${stop.tank.deviceId})`, COLUMNS.device, 70 * MM);
    text(contentName(stop.tank.contentType, locale), COLUMNS.content, 33 * MM);
    text(stop.stop.quantity.toLocaleString(locale), COLUMNS.quantity, 24 * MM, { bold: true });
    text(
      stop.stop.ticketQuantity === null ? '' : stop.stop.ticketQuantity.toLocaleString(locale),
      COLUMNS.ticket,
      27 * MM,
    );
    y -= 4.5 * MM;
    text(placeOf(stop), COLUMNS.address, 66 * MM, { size: 8 });
    if (stop.stop.orderId !== null)
      text(`${texts.order} ${stop.stop.orderId}`, COLUMNS.device, 70 * MM, { size: 8 });
    rule();
    y -= 8 * MM;
  }
  text(texts.back, COLUMNS.address, 66 * MM, { size: 8 });
  pages.forEach((each, index) => {
    const label = texts.page(index + 1, pages.length);
    each.drawText(label, {
      x: RIGHT - regular.widthOfTextAtSize(label, 7),
      y: 8 * MM,
      size: 7,
      font: regular,
      color: GREY,
    });
  });
  return pdf.save();
}
