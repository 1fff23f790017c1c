import type { TourDetail, TourStop } from '@tankportal/shared/schemas/tours';
import type { JsonOf } from '../../../lib/api/json.ts';

/** The signed-in driver's tours as `GET /v2/driver/tours` gives them (dates as ISO strings). */
export type DriverTour = JsonOf<TourDetail>;
export type DriverStop = JsonOf<TourStop>;
