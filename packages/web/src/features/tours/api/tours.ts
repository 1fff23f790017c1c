import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { tourKeys } from './keys.ts';
import type {
  PlanRequest,
  ProposedTour,
  SaveToursBody,
  TourDetailView,
  TourProposal,
  TourView,
} from './types.ts';

/** `POST /v2/tours/plan`: the planner's proposal for a day's orders and trucks; nothing is saved. */
export function usePlanTours() {
  return useMutation({
    mutationFn: (body: PlanRequest) => api<TourProposal>('POST', '/v2/tours/plan', { body }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** `POST /v2/tours`: a proposal's tour kept as planned for its driver (the answer: the saved tours). */
export function useSaveTour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveToursBody) => api<TourDetailView[]>('POST', '/v2/tours', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKeys.all }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** The body that saves one proposed tour with its driver. */
export function saveBodyOf(
  proposal: Pick<TourProposal, 'day' | 'depotId'>,
  tour: ProposedTour,
  driverUserId: number | null,
): SaveToursBody {
  return {
    day: proposal.day,
    depotId: proposal.depotId,
    tours: [
      {
        truckId: tour.truckId,
        driverUserId,
        stops: tour.stops.map(({ orderId, sensorId, quantity }) => ({ orderId, sensorId, quantity })),
      },
    ],
  };
}

/** `GET /v2/tours?day=&depot_id=`: the saved tours of a day (of one depot, or all). */
export function useTours(day: string, depotId: number | null) {
  return useQuery({
    queryKey: tourKeys.list(day, depotId),
    queryFn: ({ signal }) => api<TourView[]>('GET', '/v2/tours', { query: { day, depotId }, signal }),
  });
}

/** `GET /v2/tours/{id}`: a saved tour with its stops in order (asked for when it is opened). */
export function useTourDetail(tourId: number, enabled: boolean) {
  return useQuery({
    queryKey: tourKeys.one(tourId),
    queryFn: ({ signal }) => api<TourDetailView>('GET', `/v2/tours/${tourId}`, { signal }),
    enabled,
  });
}

/** `DELETE /v2/tours/{id}`: only while planned; its orders are confirmed again. */
export function useDeleteTour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/v2/tours/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKeys.all }),
  });
}

export const TOUR_EXPORTS = ['pdf', 'gpx', 'csv'] as const;
export type TourExport = (typeof TOUR_EXPORTS)[number];

/** The address of a tour's file: the driver's sheet (pdf), the route (gpx) or its stops (csv). */
export const tourExportUrl = (tourId: number, format: TourExport, locale: string) =>
  `/api/v2/tours/${tourId}/export.${format}?locale=${locale}`;
