import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Locale } from '@tankportal/shared/constants';
import type { DispatchResponse } from '@tankportal/shared/schemas/dispatch';
import { api, apiDownload } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** The dispatch view as the web receives it (dates as ISO strings). */
export type DispatchView = JsonOf<DispatchResponse>;

export const DISPATCH_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type DispatchExportFormat = (typeof DISPATCH_EXPORT_FORMATS)[number];

/**
 * `GET /v2/dispatch?within_days=N`: the tanks forecast to run empty within N days. The
 * previous horizon's rows stay on screen while another one loads.
 */
export function useDispatch(withinDays: number) {
  return useQuery({
    queryKey: ['dispatch', withinDays],
    queryFn: ({ signal }) => api<DispatchView>('GET', '/v2/dispatch', { query: { withinDays }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The same tanks as a file; a refusal arrives as an ApiError. */
export function downloadDispatchExport(withinDays: number, format: DispatchExportFormat, locale: Locale) {
  return apiDownload('/v2/dispatch/export', { withinDays, format, locale });
}
