import { z } from 'zod';

/** A tour's life: planned for a day, started by its driver, done when every stop is delivered or dropped. */
export const TOUR_STATES = ['planned', 'started', 'done'] as const;
export type TourState = (typeof TOUR_STATES)[number];

/** One compartment of a truck: what it carries (a sensor's content type; null: any) and how much (litres). */
export const truckCompartmentSchema = z.object({
  contentType: z.string().nullable(),
  capacity: z.number(),
});
export type TruckCompartment = z.infer<typeof truckCompartmentSchema>;
