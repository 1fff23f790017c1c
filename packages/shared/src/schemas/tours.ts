import { z } from 'zod';
import { calendarDay } from './billing.ts';
import { bodyId, isStorableText, moment, queryId, requiredText } from './common.ts';

/** A tour's life: planned for a day, started by its driver, done when every stop is delivered or dropped. */
export const TOUR_STATES = ['planned', 'started', 'done'] as const;
export type TourState = (typeof TOUR_STATES)[number];

/** One compartment of a truck: what it carries (a sensor's content type; null: any) and how much (litres). */
export const truckCompartmentSchema = z.object({
  contentType: z.string().nullable(),
  capacity: z.number(),
});
export type TruckCompartment = z.infer<typeof truckCompartmentSchema>;

// --- depots and trucks ---------------------------------------------------------------------------

export const TOUR_TEXT_MAX = 100;
export const TRUCK_PLATE_MAX = 20;
export const TRUCK_COMPARTMENTS_MAX = 12;
/** Litres a compartment may hold: more than any tank truck's. */
export const COMPARTMENT_CAPACITY_MAX = 60_000;
/** Trucks, orders and due tanks one plan may take. */
export const PLAN_TRUCKS_MAX = 20;
export const PLAN_STOPS_MAX = 500;

const requiredOrInvalid = (issue: { code?: string; input?: unknown }) =>
  issue.code !== 'invalid_type' ? undefined : issue.input == null ? 'required' : 'invalid';

const storable = { error: 'invalid', params: { code: 'invalid', args: { reason: 'character' } } } as const;

const name = () => requiredText().max(TOUR_TEXT_MAX).refine(isStorableText, storable);
const optionalText = (max: number) =>
  z
    .string({ error: 'invalid' })
    .trim()
    .max(max)
    .refine(isStorableText, storable)
    .nullish()
    .transform((value) => value || null);
const latitude = () => z.number({ error: requiredOrInvalid }).min(-90).max(90);
const longitude = () => z.number({ error: requiredOrInvalid }).min(-180).max(180);

/** Body of `POST /v2/depots` and `PUT /v2/depots/{id}`. */
export const depotBody = z.strictObject({
  name: name(),
  street: optionalText(TOUR_TEXT_MAX),
  postalCode: optionalText(TOUR_TEXT_MAX),
  city: optionalText(TOUR_TEXT_MAX),
  lat: latitude(),
  lng: longitude(),
});
export type DepotBody = z.infer<typeof depotBody>;

export const depotSchema = z.object({
  id: z.number(),
  ownerUserId: z.number(),
  name: z.string(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  createdAt: z.date(),
});
export type Depot = z.infer<typeof depotSchema>;

/** A compartment as a body names it: a content type of the look-ups, or null for any content. */
export const truckCompartmentBody = z.strictObject({
  contentType: z.string({ error: 'invalid' }).max(64).nullable(),
  capacity: z
    .number({ error: requiredOrInvalid })
    .positive({ error: 'invalid' })
    .max(COMPARTMENT_CAPACITY_MAX),
});

/** Body of `POST /v2/trucks` and `PUT /v2/trucks/{id}`. */
export const truckBody = z.strictObject({
  name: name(),
  plate: optionalText(TRUCK_PLATE_MAX),
  depotId: bodyId()
    .nullish()
    .transform((value) => value ?? null),
  compartments: z
    .array(truckCompartmentBody, { error: requiredOrInvalid })
    .min(1, { error: 'required' })
    .max(TRUCK_COMPARTMENTS_MAX),
});
export type TruckBody = z.infer<typeof truckBody>;

export const truckSchema = z.object({
  id: z.number(),
  ownerUserId: z.number(),
  depotId: z.number().nullable(),
  name: z.string(),
  plate: z.string().nullable(),
  compartments: z.array(truckCompartmentSchema),
  /** All compartments together (litres). */
  capacity: z.number(),
  createdAt: z.date(),
});
export type Truck = z.infer<typeof truckSchema>;

// --- planning ------------------------------------------------------------------------------------

/**
 * Why a stop is not in a proposal: the tank has no location; no truck has a compartment for its
 * content; its quantity alone exceeds what any truck holds of it; the trucks are full with others.
 */
export const UNPLANNED_REASONS = [
  'no_location',
  'no_compartment',
  'exceeds_capacity',
  'no_capacity_left',
] as const;
export type UnplannedReason = (typeof UNPLANNED_REASONS)[number];

/** Where the plan's distances come from: a routing service's roads, or the great circle × 1.3. */
export const DISTANCE_SOURCES = ['road', 'great_circle'] as const;

const idList = (max: number) => z.array(bodyId(), { error: 'invalid' }).max(max);

/** Body of `POST /v2/tours/plan`: what to plan for a day from a depot. */
export const tourPlanBody = z.strictObject({
  day: calendarDay(),
  depotId: bodyId(),
  truckIds: idList(PLAN_TRUCKS_MAX).min(1, { error: 'required' }),
  orderIds: idList(PLAN_STOPS_MAX).default([]),
  /** Tanks due without an order (level sensors): filled to their fill limit. */
  dueSensorIds: idList(PLAN_STOPS_MAX).default([]),
});
export type TourPlanBody = z.infer<typeof tourPlanBody>;

export const addressSchema = z.object({
  street: z.string().nullable(),
  streetNumber: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
});

/** A stop of a proposal: a tank (for an order, or due without one) and what it gets. */
export const plannedStopSchema = z.object({
  orderId: z.number().nullable(),
  deviceId: z.number(),
  deviceName: z.string(),
  sensorId: z.number(),
  contentType: z.string().nullable(),
  address: addressSchema,
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  quantity: z.number(),
});
export type PlannedStop = z.infer<typeof plannedStopSchema>;

export const tourProposalSchema = z.object({
  day: z.string(),
  depotId: z.number(),
  distanceSource: z.enum(DISTANCE_SOURCES),
  /** Why the great circle stands in for roads although a routing service is configured. */
  routingNote: z.string().nullable(),
  /** All tours (km). */
  distanceKm: z.number(),
  tours: z.array(
    z.object({
      truckId: z.number(),
      truckName: z.string(),
      distanceKm: z.number(),
      /** Quantity per content type on the tour. */
      load: z.record(z.string(), z.number()),
      stops: z.array(plannedStopSchema),
    }),
  ),
  unplanned: z.array(plannedStopSchema.extend({ reason: z.enum(UNPLANNED_REASONS) })),
});
export type TourProposal = z.infer<typeof tourProposalSchema>;

/** Body of `POST /v2/tours`: a proposal's tours to keep, one per truck, stops in their order. */
export const tourSaveBody = z.strictObject({
  day: calendarDay(),
  depotId: bodyId(),
  tours: z
    .array(
      z.strictObject({
        truckId: bodyId(),
        driverUserId: bodyId()
          .nullish()
          .transform((value) => value ?? null),
        stops: z
          .array(
            z.strictObject({
              orderId: bodyId()
                .nullish()
                .transform((value) => value ?? null),
              sensorId: bodyId(),
              quantity: z
                .number({ error: requiredOrInvalid })
                .positive({ error: 'invalid' })
                .max(COMPARTMENT_CAPACITY_MAX * TRUCK_COMPARTMENTS_MAX),
            }),
            { error: requiredOrInvalid },
          )
          .min(1, { error: 'required' })
          .max(PLAN_STOPS_MAX),
      }),
      { error: requiredOrInvalid },
    )
    .min(1, { error: 'required' })
    .max(PLAN_TRUCKS_MAX),
});
export type TourSaveBody = z.infer<typeof tourSaveBody>;

// --- tours ---------------------------------------------------------------------------------------

export const tourStopSchema = z.object({
  id: z.number(),
  position: z.number(),
  orderId: z.number().nullable(),
  deviceId: z.number(),
  deviceName: z.string(),
  sensorId: z.number(),
  contentType: z.string().nullable(),
  unit: z.string(),
  address: addressSchema,
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  quantity: z.number(),
  delivered: z.boolean(),
  deliveredAt: z.date().nullable(),
  ticketQuantity: z.number().nullable(),
});
export type TourStop = z.infer<typeof tourStopSchema>;

export const tourSchema = z.object({
  id: z.number(),
  day: z.string(),
  state: z.enum(TOUR_STATES),
  depot: z.object({
    id: z.number(),
    name: z.string(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
  }),
  truck: z.object({ id: z.number(), name: z.string(), plate: z.string().nullable() }),
  driver: z.object({ id: z.number(), username: z.string() }).nullable(),
  distanceKm: z.number().nullable(),
  stopCount: z.number(),
  deliveredCount: z.number(),
  quantity: z.number(),
  createdAt: z.date(),
});
export type Tour = z.infer<typeof tourSchema>;

export const tourDetailSchema = tourSchema.extend({ stops: z.array(tourStopSchema) });
export type TourDetail = z.infer<typeof tourDetailSchema>;

/** Query of `GET /v2/tours`. */
export const toursQuery = z.object({ day: calendarDay(), depotId: queryId().optional() });
/** Query of `GET /v2/driver/tours`. */
export const driverToursQuery = z.object({ day: calendarDay() });

/** Body of `POST /v2/driver/stops/{id}/delivered`: the ticket, once per entry id (a phone may send it again). */
export const stopDeliveredBody = z.strictObject({
  ticketQuantity: z
    .number({ error: requiredOrInvalid })
    .min(0)
    .max(COMPARTMENT_CAPACITY_MAX * TRUCK_COMPARTMENTS_MAX),
  deliveredAt: moment(),
  clientEntryId: z.uuid({ error: requiredOrInvalid }),
});
export type StopDeliveredBody = z.infer<typeof stopDeliveredBody>;
