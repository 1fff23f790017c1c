import { wallClock } from '../../time/zone.ts';
import { type Day } from '../../time/days.ts';

/**
 * A DATEV "Buchungsstapel" in the DATEV format for external programs (EXTF): header version 700,
 * data category 21, format version 13 (decision 049 names the sources). Line 1 is the header (31
 * fields), line 2 the 125 column names, then one booking per line with 125 fields; `;` between
 * fields, text in double quotes (inner quotes doubled), amounts with a decimal comma and no
 * thousands separator, Belegdatum as DDMM (the year is the header's), CRLF line ends. The caller
 * encodes the text in Windows-1252.
 */

/** The 125 columns of format version 13, as DATEV's sample files name them. */
export const BUCHUNGSSTAPEL_COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
  'Postensperre',
  'Diverse Adressnummer',
  'Geschäftspartnerbank',
  'Sachverhalt',
  'Zinssperre',
  'Beleglink',
  ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => [`Beleginfo - Art ${n}`, `Beleginfo - Inhalt ${n}`]),
  'KOST1 - Kostenstelle',
  'KOST2 - Kostenstelle',
  'Kost-Menge',
  'EU-Land u. UStID (Bestimmung)',
  'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart',
  'Sachverhalt L+L',
  'Funktionsergänzung L+L',
  'BU 49 Hauptfunktionstyp',
  'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...Array.from({ length: 20 }, (_, index) => [
    `Zusatzinformation - Art ${index + 1}`,
    `Zusatzinformation- Inhalt ${index + 1}`,
  ]).flat(),
  'Stück',
  'Gewicht',
  'Zahlweise',
  'Forderungsart',
  'Veranlagungsjahr',
  'Zugeordnete Fälligkeit',
  'Skontotyp',
  'Auftragsnummer',
  'Buchungstyp',
  'USt-Schlüssel (Anzahlungen)',
  'EU-Land (Anzahlungen)',
  'Sachverhalt L+L (Anzahlungen)',
  'EU-Steuersatz (Anzahlungen)',
  'Erlöskonto (Anzahlungen)',
  'Herkunft-Kz',
  'Buchungs GUID',
  'KOST-Datum',
  'SEPA-Mandatsreferenz',
  'Skontosperre',
  'Gesellschaftername',
  'Beteiligtennummer',
  'Identifikationsnummer',
  'Zeichnernummer',
  'Postensperre bis',
  'Bezeichnung SoBil-Sachverhalt',
  'Kennzeichen SoBil-Buchung',
  'Festschreibung',
  'Leistungsdatum',
  'Datum Zuord. Steuerperiode',
  'Fälligkeit',
  'Generalumkehr (GU)',
  'Steuersatz',
  'Land',
  'Abrechnungsreferenz',
  'BVV-Position',
  'EU-Land u. UStID (Ursprung)',
  'EU-Steuersatz (Ursprung)',
  'Abw. Skontokonto',
] as const;

export const HEADER_FIELD_COUNT = 31;

export interface BatchHeader {
  consultantNumber: number;
  clientNumber: number;
  accountLength: number;
  /** 03 or 04: the chart of accounts (Sachkontenrahmen). */
  chart: 'SKR03' | 'SKR04';
  from: Day;
  to: Day;
  /** Bezeichnung, at most 30 characters. */
  label: string;
  /** Exportiert von: who made the file. */
  exportedBy: string;
  /** Erzeugt am, in German local time. */
  createdAt: Date;
}

export interface Booking {
  /** Euros as a decimal string; negative books the other way round (H). */
  amount: string;
  /** Konto: the debtor side (receivable). */
  account: string;
  /** Gegenkonto: the revenue account. */
  contraAccount: string;
  /** BU-Schlüssel, empty for automatic accounts. */
  taxKey: string;
  documentDate: Day;
  /** Belegfeld 1: the invoice number. */
  documentNumber: string;
  text: string;
}

/** A text field: quoted, inner quotes doubled, no line breaks or tabs, at most `max` characters. */
export function text(value: string, max = Infinity): string {
  const clean = value
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, max);
  return `"${clean.replaceAll('"', '""')}"`;
}

/** An amount: the absolute value with a decimal comma and two decimals, no thousands separator. */
export function amountField(value: string): string {
  const [whole, fraction = ''] = value.replace(/^-/, '').split('.');
  return `${BigInt(whole!)},${fraction.padEnd(2, '0').slice(0, 2)}`;
}

const compact = (day: Day) => day.replaceAll('-', '');

/** Belegdatum: DDMM. */
export const ddmm = (day: Day) => `${day.slice(8, 10)}${day.slice(5, 7)}`;

/** Erzeugt am: YYYYMMDDHHMMSSmmm in German local time. */
function timestamp(moment: Date): string {
  const german = wallClock(moment, 'Europe/Berlin');
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return [
    german.getUTCFullYear(),
    pad(german.getUTCMonth() + 1),
    pad(german.getUTCDate()),
    pad(german.getUTCHours()),
    pad(german.getUTCMinutes()),
    pad(german.getUTCSeconds()),
    pad(moment.getUTCMilliseconds(), 3),
  ].join('');
}

function headerLine(header: BatchHeader): string {
  return [
    text('EXTF'),
    '700', // header version
    '21', // data category: Buchungsstapel
    text('Buchungsstapel'),
    '13', // format version
    timestamp(header.createdAt),
    '', // Importiert (DATEV fills it)
    text('RE'), // Herkunft
    text(header.exportedBy, 25),
    text(''), // Importiert von
    String(header.consultantNumber),
    String(header.clientNumber),
    `${header.from.slice(0, 4)}0101`, // WJ-Beginn: the fiscal year is the calendar year
    String(header.accountLength),
    compact(header.from),
    compact(header.to),
    text(header.label, 30),
    text(''), // Diktatkürzel
    '1', // Buchungstyp: Finanzbuchführung
    '0', // Rechnungslegungszweck: independent of it
    '0', // Festschreibung: the tax advisor locks the batch after checking it
    text('EUR'),
    '',
    text(''), // Derivatskennzeichen
    '',
    '',
    text(header.chart === 'SKR03' ? '03' : '04'),
    '', // Branchenlösungs-Id
    '',
    text(''),
    text(''), // Anwendungsinformation
  ].join(';');
}

function bookingLine(booking: Booking): string {
  const fields: string[] = new Array<string>(BUCHUNGSSTAPEL_COLUMNS.length).fill('');
  fields[0] = amountField(booking.amount);
  fields[1] = text(booking.amount.startsWith('-') ? 'H' : 'S');
  fields[2] = text('EUR');
  fields[6] = booking.account;
  fields[7] = booking.contraAccount;
  fields[8] = text(booking.taxKey);
  fields[9] = ddmm(booking.documentDate);
  // Belegfeld 1 takes letters, digits and $ & % * + - / only, at most 36.
  fields[10] = text(booking.documentNumber.replace(/[^A-Za-z0-9$&%*+\-/]/g, '').slice(-36));
  fields[13] = text(booking.text, 60);
  return fields.join(';');
}

/** The file's text (to be encoded in Windows-1252). */
export function writeBuchungsstapel(header: BatchHeader, bookings: Booking[]): string {
  const lines = [headerLine(header), BUCHUNGSSTAPEL_COLUMNS.join(';'), ...bookings.map(bookingLine)];
  return `${lines.join('\r\n')}\r\n`;
}
