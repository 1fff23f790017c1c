import type {
  Depot,
  DepotBody as DepotRequest,
  PlannedStop,
  Tour,
  TourDetail,
  TourPlanBody,
  TourProposal as Proposal,
  TourSaveBody,
  TourStop,
  Truck,
  TruckBody as TruckRequest,
} from '@tankportal/shared/schemas/tours';
import type { JsonOf } from '../../../lib/api/json.ts';

/** The tour planner's answers as the web receives them (dates as ISO strings). */
export type DepotView = JsonOf<Depot>;
export type TruckView = JsonOf<Truck>;
export type TourProposal = JsonOf<Proposal>;
export type ProposedTour = TourProposal['tours'][number];
export type UnplannedStop = TourProposal['unplanned'][number];
export type TourView = JsonOf<Tour>;
export type TourDetailView = JsonOf<TourDetail>;
/** A stop of a proposal or of a saved tour: what the stops table shows. */
export type StopView = JsonOf<PlannedStop> & Partial<Pick<JsonOf<TourStop>, 'id' | 'unit' | 'delivered'>>;

/** What the forms send: an empty number as null (the server then names the field). */
export type DepotBody = Omit<DepotRequest, 'lat' | 'lng'> & { lat: number | null; lng: number | null };
export type TruckBody = Omit<TruckRequest, 'depotId'> & { depotId: number | null };
export type PlanRequest = Omit<TourPlanBody, 'orderIds' | 'dueSensorIds'> &
  Partial<Pick<TourPlanBody, 'orderIds' | 'dueSensorIds'>>;
export type SaveToursBody = TourSaveBody;
