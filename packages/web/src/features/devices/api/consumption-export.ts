import { endOfDay, startOfDay } from 'date-fns';
import type { Locale } from '@tankportal/shared/constants';
import { apiDownload } from '../../../lib/api-client.ts';

export const CONSUMPTION_EXPORT_TYPES = ['simple_consumption', 'extended_consumption'] as const;
export type ConsumptionExportType = (typeof CONSUMPTION_EXPORT_TYPES)[number];
export const CONSUMPTION_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ConsumptionExportFormat = (typeof CONSUMPTION_EXPORT_FORMATS)[number];

export interface ConsumptionExportRequest {
  deviceId: number;
  type: ConsumptionExportType;
  format: ConsumptionExportFormat;
  locale: Locale;
  /** Calendar days picked by the user (browser time). */
  from: Date;
  to: Date;
}

/**
 * The export's query: from is the start of its day, to the end of its day,
 * both as ISO instants; times in the file are written in the browser's time zone.
 */
export function consumptionExportQuery(request: ConsumptionExportRequest) {
  return {
    exportType: request.type,
    fileFormat: request.format,
    deviceId: request.deviceId,
    locale: request.locale,
    from: startOfDay(request.from).toISOString(),
    to: endOfDay(request.to).toISOString(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** Downloads the file; a refusal (400 field errors on from/to, 403) arrives as an ApiError. */
export function downloadConsumptionExport(request: ConsumptionExportRequest): Promise<void> {
  return apiDownload('/v2/devices/export/', consumptionExportQuery(request));
}
