/**
 * The German weather service's daily station values (DWD Climate Data Center, "tageswerte KL",
 * recent: the last ~550 days, updated daily). One zip per station holds, beside metadata files,
 * `produkt_klima_tag_<from>_<to>_<id>.txt`: semicolon-separated, a header line, one row per day
 * with MESS_DATUM (YYYYMMDD, the German calendar day) and TMK (daily mean air temperature in °C,
 * -999 where missing). Documented in DWD's "DESCRIPTION_obsgermany_climate_daily_kl".
 */
import { unzipSync, strFromU8 } from 'fflate';

export interface DailyMean {
  /** 'YYYY-MM-DD' */
  day: string;
  meanTemperature: number;
}

/** A DWD station id: up to five digits, written with leading zeros in the file names. */
export const DWD_STATION_ID = /^\d{1,5}$/;
export const dwdStationFileId = (id: string) => id.padStart(5, '0');

export type WeatherImportFailure = 'not_found' | 'unreachable' | 'unreadable';

export class WeatherImportError extends Error {
  readonly reason: WeatherImportFailure;
  constructor(reason: WeatherImportFailure) {
    super(`weather import failed: ${reason}`);
    this.reason = reason;
  }
}

/** The daily means of a DWD product file's text; rows without a valid TMK are left out. */
export function parseDwdDailyProduct(text: string): DailyMean[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0].split(';').map((cell) => cell.trim().toUpperCase());
  const dateColumn = header.indexOf('MESS_DATUM');
  const meanColumn = header.indexOf('TMK');
  if (dateColumn < 0 || meanColumn < 0) throw new WeatherImportError('unreadable');
  const days: DailyMean[] = [];
  for (const line of lines.slice(1)) {
    const cells = line.split(';').map((cell) => cell.trim());
    const date = cells[dateColumn];
    const mean = Number(cells[meanColumn]);
    if (!/^\d{8}$/.test(date ?? '') || !Number.isFinite(mean) || mean <= -999) continue;
    // Plausible air temperatures only: a broken row must not become a heating winter.
    if (mean < -60 || mean > 60) continue;
    days.push({ day: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`, meanTemperature: mean });
  }
  return days;
}

/** The product file inside a station's zip, parsed. */
export function readDwdStationZip(zip: Uint8Array): DailyMean[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (file) => /^produkt_klima_tag_.*\.txt$/i.test(file.name) });
  } catch {
    throw new WeatherImportError('unreadable');
  }
  const [product] = Object.values(files);
  if (!product) throw new WeatherImportError('unreadable');
  // DWD writes its text files in Latin-1; the columns read here are ASCII either way.
  return parseDwdDailyProduct(strFromU8(product, true));
}

/**
 * Fetches and reads one station's recent daily means from `baseUrl` (config.weatherDwdUrl); gives
 * up after 20 s, inside the web's 30 s for the "import now" request, so the answer says why.
 */
export async function fetchDwdStation(
  baseUrl: string,
  stationId: string,
  { timeoutMs = 20_000 } = {},
): Promise<DailyMean[]> {
  const url = `${baseUrl}/tageswerte_KL_${dwdStationFileId(stationId)}_akt.zip`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new WeatherImportError('unreachable');
  }
  if (response.status === 404) throw new WeatherImportError('not_found');
  if (!response.ok) throw new WeatherImportError('unreachable');
  return readDwdStationZip(new Uint8Array(await response.arrayBuffer()));
}
