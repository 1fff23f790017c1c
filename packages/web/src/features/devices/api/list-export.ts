import type { Locale } from '@tankportal/shared/constants';
import type { DataFlowOutput, InterpolationDate, InterpolationMode } from '@tankportal/shared/schemas/export';
import { apiDownload } from '../../../lib/api-client.ts';
import { listRequestQuery, type DeviceListQueryState } from '../lib/list-query.ts';

/** Formats offered (no legacy xls: the server writes xlsx and csv only). */
export const LIST_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ListExportFormat = (typeof LIST_EXPORT_FORMATS)[number];

/** The device list as the actor sees it, filtered and ordered like the screen. */
export function downloadListExport(state: DeviceListQueryState, format: ListExportFormat, locale: Locale) {
  return apiDownload('/v2/devices/export', {
    exportType: 'simple_list',
    fileFormat: format,
    locale,
    ...listRequestQuery(state),
  });
}

export interface DataFlowExportRequest {
  /** `last13month` or a year. */
  period: string;
  /** Only level sensors of these contents; none chosen: all. */
  contentTypes: string[];
  outputs: DataFlowOutput[];
  mode: InterpolationMode;
  at: InterpolationDate;
  format: ListExportFormat;
  locale: Locale;
}

/** Search string of the data-flow export; list keys keep their `[]` (`outputs[]=qty&outputs[]=inflow`). */
export function dataFlowExportSearch(request: DataFlowExportRequest): string {
  const params = new URLSearchParams({
    export_type: 'probe_data_flow',
    file_format: request.format,
    locale: request.locale,
    period: request.period,
    interpolation_mode: request.mode,
    interpolation_date: request.at,
  });
  for (const contentType of request.contentTypes) params.append('content_types[]', contentType);
  for (const output of request.outputs) params.append('outputs[]', output);
  return params.toString();
}

/** Monthly inflow, outflow and quantity of every level sensor the actor may export. */
export function downloadDataFlowExport(request: DataFlowExportRequest) {
  return apiDownload(`/v2/devices/export?${dataFlowExportSearch(request)}`);
}
