import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { depotBody, depotSchema, truckBody, truckSchema } from '@tankportal/shared/schemas/tours';
import type { Api, AppContext } from '../../../context.ts';
import {
  createDepot,
  createTruck,
  deleteDepot,
  deleteTruck,
  updateDepot,
  updateTruck,
} from '../../../commands/dealer-fleet.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf, txOf } from '../../../plugins/route-chain.ts';
import { presentDepot, presentTruck } from '../../../presenters/tour.ts';
import { depotsOf, findDepot, findTrucks, trucksOf } from '../../../repositories/tours.ts';
import { errorSchema } from '../../schemas.ts';

const idParams = z.object({ id: pathId() });
const refusals = { 403: errorSchema, 404: errorSchema };

/**
 * A dealer's depots and trucks (docs/product/tours.md): ROLE_ADMIN; the owner (who made it) and
 * the users above it see and change one, anybody else gets 404. Each change is one transaction with
 * its entry in the record of changes.
 */
export function dealerFleetRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/depots',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: 'The depots the actor sees, by name',
        response: { 200: z.array(depotSchema), 403: errorSchema },
      },
    },
    async (request) => (await depotsOf(db, actorOf(request).user)).map(presentDepot),
  );

  app.get(
    '/depots/:id',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: 'One depot',
        params: idParams,
        response: { 200: depotSchema, ...refusals },
      },
    },
    async (request) => {
      const depot = await findDepot(db, actorOf(request).user, request.params.id);
      if (!depot) throw notFound();
      return presentDepot(depot);
    },
  );

  app.post(
    '/depots',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary: 'Adds a depot, owned by the actor',
        body: depotBody,
        response: { 201: depotSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const depot = await createDepot(txOf(request), authorOf(request), request.body);
      reply.code(201).header('location', `/api/v2/depots/${depot.id}`);
      return presentDepot(depot);
    },
  );

  app.put(
    '/depots/:id',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary: 'Changes a depot',
        params: idParams,
        body: depotBody,
        response: { 200: depotSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request) =>
      presentDepot(await updateDepot(txOf(request), authorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/depots/:id',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary: 'Deletes a depot no tour starts from (409 DepotHasTours otherwise)',
        params: idParams,
        response: { 204: z.null(), ...refusals, 409: errorSchema },
      },
    },
    async (request, reply) => {
      await deleteDepot(txOf(request), authorOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );

  app.get(
    '/trucks',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: 'The trucks the actor sees, by name',
        response: { 200: z.array(truckSchema), 403: errorSchema },
      },
    },
    async (request) => (await trucksOf(db, actorOf(request).user)).map(presentTruck),
  );

  app.get(
    '/trucks/:id',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['tours'],
        summary: 'One truck',
        params: idParams,
        response: { 200: truckSchema, ...refusals },
      },
    },
    async (request) => {
      const [truck] = await findTrucks(db, actorOf(request).user, [request.params.id]);
      if (!truck) throw notFound();
      return presentTruck(truck);
    },
  );

  app.post(
    '/trucks',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary:
          'Adds a truck with its compartments (content type or null for any, litres), owned by the actor',
        body: truckBody,
        response: { 201: truckSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const truck = await createTruck(txOf(request), authorOf(request), request.body);
      reply.code(201).header('location', `/api/v2/trucks/${truck.id}`);
      return presentTruck(truck);
    },
  );

  app.put(
    '/trucks/:id',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary: 'Changes a truck',
        params: idParams,
        body: truckBody,
        response: { 200: truckSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request) =>
      presentTruck(await updateTruck(txOf(request), authorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/trucks/:id',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['tours'],
        summary: 'Deletes a truck no tour uses (409 TruckHasTours otherwise)',
        params: idParams,
        response: { 204: z.null(), ...refusals, 409: errorSchema },
      },
    },
    async (request, reply) => {
      await deleteTruck(txOf(request), authorOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );
}
