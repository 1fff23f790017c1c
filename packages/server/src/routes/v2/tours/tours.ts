import { z } from 'zod';
import { LOCALES } from '@tankportal/shared/constants';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  tourDetailSchema,
  tourPlanBody,
  tourProposalSchema,
  tourSaveBody,
  tourSchema,
  toursQuery,
} from '@tankportal/shared/schemas/tours';
import type { Api, AppContext } from '../../../context.ts';
import type { Executor } from '../../../db/client.ts';
import type { UserRow } from '../../../db/schema.ts';
import { attachment } from '../../../commands/export-sheet.ts';
import { tourFilename, tourGpx, tourPdf, tourSheet } from '../../../commands/tour-exports.ts';
import { deleteTour, proposeTours, saveTours, type Routing } from '../../../commands/tours.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf, txOf } from '../../../plugins/route-chain.ts';
import { presentTour, presentTourDetail } from '../../../presenters/tour.ts';
import { findTour, stopsOf, toursOf } from '../../../repositories/tours.ts';
import { SCHEDULE_TIME_ZONE } from '../../../time/zone.ts';
import { errorSchema } from '../../schemas.ts';
import { sendExport } from '../exports/send-export.ts';

const idParams = z.object({ id: pathId() });
const refusals = { 403: errorSchema, 404: errorSchema };
const exportQuery = z.object({ locale: z.enum(LOCALES).default('de') });

/** One of the actor's tours with its stops; 404 when the actor may not see it. */
export async function tourWithStops(executor: Executor, actor: UserRow, id: number) {
  const row = await findTour(executor, actor, id);
  if (!row) throw notFound();
  const stops = (await stopsOf(executor, [row.tour.id])).get(row.tour.id)!;
  return { row, stops };
}

/**
 * The tour planner (docs/product/tours.md): ROLE_ADMIN, the dealer. A proposal for a day from a
 * depot (nothing saved), the tours kept from it (orders put on their tours), the day's tours, one
 * tour with its stops, deleting a tour while planned, and a tour to take along (GPX, csv, PDF).
 */
export function tourRoutes(app: Api, { db, config }: AppContext) {
  const routing = (log: Routing['log']): Routing => ({ routingUrl: config.routingUrl, log });

  app.post(
    '/tours/plan',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary:
          'Plans tours for a day: the confirmed orders and due tanks given on the trucks given, from the depot; ' +
          'stops per truck in order with quantities and distances, and what did not fit with why. Saves nothing',
        body: tourPlanBody,
        response: { 200: tourProposalSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => proposeTours(db, actorOf(request).user, request.body, routing(request.log)),
  );

  app.post(
    '/tours',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary:
          "Keeps a proposal's tours for the day (one per truck, stops in order, an optional driver of the " +
          "actor's subtree); each order goes on its tour",
        body: tourSaveBody,
        response: { 201: z.array(tourDetailSchema), 400: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const ids = await saveTours(db, authorOf(request), request.body, routing(request.log));
      const saved = await Promise.all(ids.map((id) => tourWithStops(db, actor, id)));
      return reply.code(201).send(saved.map(({ row, stops }) => presentTourDetail(row, stops)));
    },
  );

  app.get(
    '/tours',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: "The actor's tours of a day (of one depot), by truck",
        querystring: toursQuery,
        response: { 200: z.array(tourSchema), 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      const rows = await toursOf(db, actorOf(request).user, request.query.day, request.query.depotId);
      const stops = await stopsOf(
        db,
        rows.map((row) => row.tour.id),
      );
      return rows.map((row) => presentTour(row, stops.get(row.tour.id)!));
    },
  );

  app.get(
    '/tours/:id',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: 'One tour with its stops in order',
        params: idParams,
        response: { 200: tourDetailSchema, ...refusals },
      },
    },
    async (request) => {
      const { row, stops } = await tourWithStops(db, actorOf(request).user, request.params.id);
      return presentTourDetail(row, stops);
    },
  );

  app.delete(
    '/tours/:id',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary:
          'Deletes a tour still planned (409 TourStarted after a delivery); its orders are confirmed again',
        params: idParams,
        response: { 204: z.null(), ...refusals, 409: errorSchema },
      },
    },
    async (request, reply) => {
      await deleteTour(txOf(request), authorOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );

  app.get(
    '/tours/:id/export.gpx',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: 'The tour as GPX 1.1: a waypoint per stop and the route depot → stops → depot',
        params: idParams,
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const { row, stops } = await tourWithStops(db, actorOf(request).user, request.params.id);
      return reply
        .type('application/gpx+xml; charset=utf-8')
        .header('content-disposition', attachment(`${tourFilename(row)}.gpx`))
        .send(tourGpx(row, stops));
    },
  );

  app.get(
    '/tours/:id/export.csv',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: "The tour's stops as csv, columns in the language asked for",
        params: idParams,
        querystring: exportQuery,
        response: { 200: z.string(), 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { row, stops } = await tourWithStops(db, actorOf(request).user, request.params.id);
      const { locale } = request.query;
      return sendExport(request, reply, tourSheet(row, stops, locale), {
        format: 'csv',
        locale,
        timeZone: SCHEDULE_TIME_ZONE,
      });
    },
  );

  app.get(
    '/tours/:id/export.pdf',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: "The driver's sheet as PDF: the stops in order with room for the ticket and a signature",
        params: idParams,
        querystring: exportQuery,
        response: { 200: z.any(), 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { row, stops } = await tourWithStops(db, actorOf(request).user, request.params.id);
      const pdf = await tourPdf(row, stops, request.query.locale);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(`${tourFilename(row)}.pdf`))
        .send(Buffer.from(pdf));
    },
  );
}
