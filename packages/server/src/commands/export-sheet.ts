import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { Locale } from '@tankportal/shared/constants';
import { partsIn, wallClock } from '../time/zone.ts';

/**
 * One sheet of an export, written row by row into a stream while the rows are read from the
 * database page by page: a device's two years of readings never sit in memory at once.
 * - xlsx: ExcelJS's streaming workbook writer; numbers stay numbers, times are date cells in the
 *   locale's format (wall-clock time of the export's zone: spreadsheets know no zones), calendar
 *   days (`date`, given as UTC midnight) date cells without a time.
 * - csv: RFC 4180 lines with the locale's conventions (de: `;` and decimal comma; en: `,` and
 *   decimal point), UTF-8 with a byte-order mark so that spreadsheet programs read umlauts.
 *   ExcelJS's csv writer needs the whole sheet in memory (about 50 MB for 30,000 rows), hence
 *   these few lines.
 */
export type Cell = string | number | Date | null;

export interface Column {
  header: string;
  /** `date`: a calendar day, its cells `Date`s at UTC midnight (no zone moves them). */
  kind: 'text' | 'number' | 'datetime' | 'date';
  /** Decimals of a number column (values are rounded to them in both formats). */
  decimals?: number;
  width?: number;
}

export interface SheetOptions {
  format: 'csv' | 'xlsx';
  locale: Locale;
  timeZone: string;
  sheetName: string;
  columns: Column[];
}

export interface SheetWriter {
  /** The file's bytes, to hand to the reply before the rows are written. */
  readonly stream: PassThrough;
  addRow(cells: Cell[]): Promise<void>;
  finish(): Promise<void>;
  /** Ends the file abruptly after a failure (the client sees an incomplete download). */
  abort(error: Error): void;
}

export const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

// ExcelJS is loaded on demand, not at import: it is some 2,000 modules (0.2 s on an idle machine,
// seconds on a busy one), for every process and test file that never writes a spreadsheet.
const load = createRequire(import.meta.url);

/**
 * Loads ExcelJS ahead of the first xlsx export. Loaded by that export instead, its cost landed on
 * the user who clicked (an xlsx used to arrive seconds after the click, a csv at once); the serving
 * process calls this once it listens (main/start.ts).
 */
export function preloadSpreadsheetWriter(): void {
  load('exceljs');
}

const DATE_TIME_FORMAT = { de: 'dd.mm.yyyy hh:mm', en: 'mm/dd/yyyy hh:mm AM/PM' } as const;
const DATE_FORMAT = { de: 'dd.mm.yyyy', en: 'mm/dd/yyyy' } as const;

export function createSheet(options: SheetOptions): SheetWriter {
  return options.format === 'xlsx' ? xlsxSheet(options) : csvSheet(options);
}

const round = (value: number, decimals = 2) => Number(value.toFixed(decimals));

function xlsxSheet({ locale, timeZone, sheetName, columns }: SheetOptions): SheetWriter {
  const stream = new PassThrough();
  const ExcelJS = load('exceljs') as typeof import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({
    header: column.header,
    width: column.width ?? (column.kind === 'datetime' ? 20 : Math.max(10, column.header.length + 2)),
    style:
      column.kind === 'datetime'
        ? { numFmt: DATE_TIME_FORMAT[locale] }
        : column.kind === 'date'
          ? { numFmt: DATE_FORMAT[locale] }
          : column.kind === 'number'
            ? { numFmt: column.decimals ? `0.${'0'.repeat(column.decimals)}` : '0' }
            : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return {
    stream,
    async addRow(cells) {
      sheet
        .addRow(
          cells.map((cell, index) => {
            if (cell instanceof Date)
              return columns[index].kind === 'date' ? cell : wallClock(cell, timeZone);
            if (typeof cell === 'number') return round(cell, columns[index].decimals);
            // A plain string cell is no formula yet, but becomes one once a user edits or re-saves it.
            return typeof cell === 'string' ? defuse(cell) : cell;
          }),
        )
        .commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
    abort: (error) => stream.destroy(error),
  };
}

function csvSheet({ locale, timeZone, columns }: SheetOptions): SheetWriter {
  const stream = new PassThrough();
  const delimiter = locale === 'de' ? ';' : ',';
  const numbers = columns.map(
    (column) =>
      new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US', {
        useGrouping: false,
        minimumFractionDigits: 0,
        maximumFractionDigits: column.decimals ?? 2,
      }),
  );
  const quote = (text: string) =>
    text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  const line = (cells: Cell[]) =>
    cells
      .map((cell, index) => {
        if (cell === null) return '';
        if (cell instanceof Date)
          return columns[index].kind === 'date'
            ? formatDay(cell, locale)
            : formatDateTime(cell, locale, timeZone);
        if (typeof cell === 'number') return quote(numbers[index].format(cell));
        return quote(defuse(cell));
      })
      .join(delimiter) + '\r\n';
  const write = async (text: string) => {
    // Wait for the reader; a closed download (client gone) ends the wait as well.
    if (!stream.write(text) && !stream.destroyed)
      await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
  };
  stream.write('\uFEFF' + line(columns.map((column) => column.header)));
  return {
    stream,
    addRow: (cells) => write(line(cells)),
    async finish() {
      stream.end();
    },
    abort: (error) => stream.destroy(error),
  };
}

/**
 * A text cell starting like a formula (`=`, `+`, `-`, `@`, tab, CR) would run as one when the csv is
 * opened in a spreadsheet program, or when an xlsx cell is edited or the file saved as csv (OWASP
 * "CSV injection"): a leading apostrophe keeps it text, in both formats.
 */
function defuse(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** German dd.MM.yyyy HH:mm, English MM/dd/yyyy hh:mm a; in the export's zone. */
export function formatDateTime(date: Date, locale: Locale, timeZone: string): string {
  const p = partsIn(date, timeZone);
  if (locale === 'de') return `${pad(p.day)}.${pad(p.month)}.${p.year} ${pad(p.hour)}:${pad(p.minute)}`;
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${pad(p.month)}/${pad(p.day)}/${p.year} ${pad(hour12)}:${pad(p.minute)} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** A calendar day (UTC midnight) as the locale writes it: 31.12.2026 or 12/31/2026. */
function formatDay(day: Date, locale: Locale): string {
  const [d, m, y] = [day.getUTCDate(), day.getUTCMonth() + 1, day.getUTCFullYear()];
  return locale === 'de' ? `${pad(d)}.${pad(m)}.${y}` : `${pad(m)}/${pad(d)}/${y}`;
}

/** `Content-Disposition` for a download (ASCII name plus the RFC 5987 form). */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
