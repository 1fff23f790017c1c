import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Locale } from '@tankportal/shared/constants';
import type { DispatchResponse } from '@tankportal/shared/schemas/dispatch';
import { api, apiDownload } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** The dispatch view as the web receives it (dates as ISO strings). */
export type DispatchView = JsonOf<DispatchResponse>;

export const DISPATCH_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type DispatchExportFormat = (typeof DISPATCH_EXPORT_FORMATS)[number];

/** What the view asks for: the horizon and the delivery day (null: the horizon's last day). */
export interface DispatchRequest {
  withinDays: number;
  deliveryOn: string | null;
}

const queryOf = ({ withinDays, deliveryOn }: DispatchRequest) => ({
  withinDays,
  ...(deliveryOn !== null && { deliveryOn }),
});

/**
 * `GET /v2/dispatch?within_days=N&delivery_on=D`: the tanks forecast to run empty within N days,
 * with the quantities today and on day D. The previous answer stays on screen while another one
 * loads.
 */
export function useDispatch(request: DispatchRequest) {
  return useQuery({
    queryKey: ['dispatch', request.withinDays, request.deliveryOn],
    queryFn: ({ signal }) => api<DispatchView>('GET', '/v2/dispatch', { query: queryOf(request), signal }),
    placeholderData: keepPreviousData,
  });
}

/** The same tanks as a file; a refusal arrives as an ApiError. */
export function downloadDispatchExport(
  request: DispatchRequest,
  format: DispatchExportFormat,
  locale: Locale,
) {
  return apiDownload('/v2/dispatch/export', { ...queryOf(request), format, locale });
}
