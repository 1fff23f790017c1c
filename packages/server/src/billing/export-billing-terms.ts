import { asc, eq } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import type { Db } from '../db/client.ts';
import { billingTerms, devices, users } from '../db/schema.ts';
import type { ExportPlan } from '../commands/export-consumption.ts';

/** Rows read per statement: the list of a whole installation never sits in memory at once. */
const PAGE = 1000;

const HEADERS = {
  de: [
    'Gerät',
    'Gerätename',
    'Benutzer',
    'Debitor',
    'Art',
    'Bezeichnung',
    'Preis (EUR)',
    'Zeitraum',
    'Abrechnungszeitpunkt',
    'Gültig ab',
    'Gültig bis',
    'Abgerechnet bis',
    'Nächste Abrechnung',
    'Inklusiv-SMS',
  ],
  en: [
    'Device',
    'Device name',
    'User',
    'Debtor',
    'Kind',
    'Name',
    'Price (EUR)',
    'Period',
    'Time of invoicing',
    'Valid from',
    'Valid until',
    'Invoiced until',
    'Next invoicing',
    'Included SMS',
  ],
} as const;

const LABELS = {
  de: {
    alias: {
      custom: 'Individuell',
      device_license: 'Gerätelizenz',
      sms_device: 'SMS Gerät',
      sms_external: 'SMS extern',
      others: 'Sonstiges',
    },
    period: { w: 'Woche', m: 'Monat', q: 'Quartal', y: 'Jahr' },
    time: { begin: 'Anfang', mid: 'Mitte', end: 'Ende' },
  },
  en: {
    alias: {
      custom: 'Custom',
      device_license: 'Device licence',
      sms_device: 'SMS device',
      sms_external: 'SMS external',
      others: 'Others',
    },
    period: { w: 'Week', m: 'Month', q: 'Quarter', y: 'Year' },
    time: { begin: 'Beginning', mid: 'Middle', end: 'End' },
  },
} as const;

/** A calendar day as a date cell (the sheet shows it in the locale's format). */
const dayCell = (day: string | null) => (day === null ? null : new Date(`${day}T00:00:00Z`));

/** The columns holding calendar days: Gültig ab/bis, Abgerechnet bis, Nächste Abrechnung. */
const DAY_COLUMNS = new Set([9, 10, 11, 12]);

/** GET /v2/billing-terms/export: every billing term with its device, by device. */
export function billingTermsExport(db: Db, locale: Locale): ExportPlan {
  const labels = LABELS[locale];
  async function* rows() {
    for (let offset = 0; ; offset += PAGE) {
      const page = await db
        .select({ terms: billingTerms, device: devices, username: users.username })
        .from(billingTerms)
        .innerJoin(devices, eq(devices.id, billingTerms.deviceId))
        .innerJoin(users, eq(users.id, devices.userId))
        .orderBy(asc(billingTerms.deviceId), asc(billingTerms.id))
        .limit(PAGE)
        .offset(offset);
      for (const { terms, device, username } of page)
        yield [
          device.id,
          device.name,
          username,
          device.debtorIdent,
          labels.alias[terms.alias],
          terms.customName,
          Number(terms.price),
          labels.period[terms.chargingPeriodType],
          labels.time[terms.timeOfInvoicing],
          dayCell(terms.validFrom),
          dayCell(terms.validUntil),
          dayCell(terms.invoicedUntil),
          dayCell(terms.nextInvoicingAt),
          terms.exemptedQuantity,
        ];
      if (page.length < PAGE) return;
    }
  }
  const headers = HEADERS[locale];
  return {
    filename: locale === 'de' ? 'abrechnungsbedingungen' : 'billing-terms',
    sheetName: locale === 'de' ? 'Abrechnung' : 'Billing',
    columns: headers.map((header, index) => ({
      header,
      kind: DAY_COLUMNS.has(index)
        ? ('date' as const)
        : index === 0 || index === 13 || index === 6
          ? ('number' as const)
          : ('text' as const),
      ...(index === 6 && { decimals: 2 }),
    })),
    rows: rows(),
  };
}
