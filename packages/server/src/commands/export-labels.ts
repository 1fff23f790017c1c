import type { Locale } from '@tankportal/shared/constants';
import { unitSymbol } from '@tankportal/shared/units';
import { CONTENT_TYPES } from '../lookups/content-types.ts';

/** Headers, sheet and file names of the exports, in the language the export asks for. */
const LABELS = {
  de: {
    year: 'Jahr',
    month: 'Monat',
    time: 'Zeit',
    sensor: 'Sensor',
    value: 'Wert',
    unit: 'Einheit',
    percent: 'Füllstand (%)',
    temperature: 'Temperatur (°C)',
    id: 'ID',
    username: 'Benutzer',
    name: 'Name',
    project: 'Projekt',
    countryCode: 'Land',
    postalCode: 'PLZ',
    city: 'Ort',
    street: 'Straße',
    lastReportedAt: 'Letzte Meldung',
    simCredit: 'SIM-Guthaben',
    currency: 'Währung',
    status: 'Status',
    active: 'Aktiv',
    yes: 'ja',
    no: 'nein',
    statusOk: 'OK',
    statusAlarm: 'Alarm',
    contentType: 'Inhalt',
    inflow: 'Zufluss',
    outflow: 'Abfluss',
    qty: 'Bestand',
    sheetConsumption: 'Verbrauch',
    sheetMeasurements: 'Messwerte',
    sheetDevices: 'Geräte',
    sheetDataFlow: 'Datenfluss',
    fileConsumption: 'verbrauch',
    fileMeasurements: 'messwerte',
    fileDevices: 'geraete',
    fileDataFlow: 'datenfluss',
    actingFor: 'Tatsächlich angemeldet',
    address: 'Adresse',
    entity: 'Objekt',
    deviceId: 'Gerät',
    action: 'Aktion',
    changes: 'Änderungen',
    sheetChanges: 'Änderungen',
    fileChanges: 'aenderungen',
  },
  en: {
    year: 'Year',
    month: 'Month',
    time: 'Time',
    sensor: 'Sensor',
    value: 'Value',
    unit: 'Unit',
    percent: 'Level (%)',
    temperature: 'Temperature (°C)',
    id: 'ID',
    username: 'User',
    name: 'Name',
    project: 'Project',
    countryCode: 'Country',
    postalCode: 'Postal code',
    city: 'City',
    street: 'Street',
    lastReportedAt: 'Last report',
    simCredit: 'SIM credit',
    currency: 'Currency',
    status: 'Status',
    active: 'Active',
    yes: 'yes',
    no: 'no',
    statusOk: 'OK',
    statusAlarm: 'Alarm',
    contentType: 'Content',
    inflow: 'Inflow',
    outflow: 'Outflow',
    qty: 'Quantity',
    sheetConsumption: 'Consumption',
    sheetMeasurements: 'Measurements',
    sheetDevices: 'Devices',
    sheetDataFlow: 'Data flow',
    fileConsumption: 'consumption',
    fileMeasurements: 'measurements',
    fileDevices: 'devices',
    fileDataFlow: 'data-flow',
    actingFor: 'Actually signed in',
    address: 'Address',
    entity: 'Object',
    deviceId: 'Device',
    action: 'Action',
    changes: 'Changes',
    sheetChanges: 'Changes',
    fileChanges: 'changes',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type ExportLabels = (typeof LABELS)[Locale];

export function exportLabels(locale: Locale): ExportLabels {
  return LABELS[locale];
}

/** A unit as every export writes it: its symbol (`m³` for both `m3` and `cbm`). */
export const unitCell = (unit: string | null | undefined): string | null => (unit ? unitSymbol(unit) : null);

/** A content type's name in the export's language; a code this version does not know as it is. */
export function contentTypeName(code: string | null, locale: Locale): string | null {
  if (!code) return null;
  return CONTENT_TYPES.find((type) => type.id === code)?.name[locale] ?? code;
}

/** A sensor's column or cell name: its name, or "Sensor n" when it has none. */
export function sensorLabel(
  labels: ExportLabels,
  sensor: { sequence: number; name: string; unit?: string },
  withUnit = false,
): string {
  const name = sensor.name.trim() || `${labels.sensor} ${sensor.sequence}`;
  return withUnit && sensor.unit ? `${name} (${unitSymbol(sensor.unit)})` : name;
}
