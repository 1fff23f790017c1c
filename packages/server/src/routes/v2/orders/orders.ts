import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  orderConfirmBody,
  orderCreateBody,
  orderDetailSchema,
  orderProposalQuery,
  orderProposalSchema,
  orderReasonBody,
  orderSchema,
  ordersQuery,
  orderUpdateBody,
  replenishmentBody,
  replenishmentSchema,
} from '@tankportal/shared/schemas/orders';
import type { Api, AppContext } from '../../../context.ts';
import type { Tx } from '../../../db/client.ts';
import type { UserRow } from '../../../db/schema.ts';
import {
  cancelOrder,
  closeOrder,
  confirmOrder,
  createOrder,
  orderProposal,
  rejectOrder,
  replenishmentOf,
  requestOrder,
  setReplenishment,
  updateOrder,
} from '../../../commands/orders.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf, txOf } from '../../../plugins/route-chain.ts';
import { orderSideOn, requireDealerOf, type OrderSide } from '../../../policies/orders.ts';
import { presentOrder, presentOrderEvent } from '../../../presenters/order.ts';
import { eventsOfOrder, findOrder, ordersDealtBy, ordersOfDevice } from '../../../repositories/orders.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from '../devices/devices.ts';

const orderIdParams = z.object({ id: pathId() });
const refusals = { 403: errorSchema, 404: errorSchema };
const changeAnswers = { 200: orderDetailSchema, 400: errorSchema, ...refusals, 409: errorSchema };

/**
 * Orders (docs/product/orders.md): a customer orders a delivery for a tank of its device, its
 * dealer (the admin above the device's owner) confirms it with a planned date, rejects or cancels
 * it; a tour takes it on, the driver's ticket and the tank's own measurement close it. Every change
 * is one transaction with its history row, its record and its notification.
 */
export function orderRoutes(app: Api, { db }: AppContext) {
  /** The order with its history as the actor sees it; 404 when the actor may not see its device. */
  async function detail(tx: Tx, actor: UserRow, id: number, knownSide?: OrderSide) {
    const row = await findOrder(tx, id);
    if (!row) throw notFound();
    const side = knownSide ?? (await orderSideOn(tx, actor, row.order.deviceId));
    const events = await eventsOfOrder(tx, id);
    return { ...presentOrder(row, side, actor.id), events: events.map(presentOrderEvent) };
  }

  /** The side the actor is on for an order's device (404 for an unknown order or an invisible device). */
  async function sideFor(tx: Tx, actor: UserRow, id: number) {
    const row = await findOrder(tx, id);
    if (!row) throw notFound();
    return orderSideOn(tx, actor, row.order.deviceId);
  }

  app.get(
    '/devices/:id/orders',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_STATUS' }, transaction: true },
      schema: {
        tags: ['orders'],
        summary: "The device's orders, newest first, each with what the actor may do with it",
        params: deviceIdParams,
        response: { 200: z.array(orderSchema), ...refusals },
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await orderSideOn(tx, actor, request.params.id);
      const rows = await ordersOfDevice(tx, request.params.id);
      return rows.map((row) => presentOrder(row, side, actor.id));
    },
  );

  app.get(
    '/devices/:id/orders/proposal',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_STATUS' } },
      schema: {
        tags: ['orders'],
        summary:
          'The quantity that fills a level sensor to its fill limit (or capacity) on a day, from the ' +
          "forecast's use per day: the order form's proposal",
        params: deviceIdParams,
        querystring: orderProposalQuery,
        response: { 200: orderProposalSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request) => orderProposal(db, request.params.id, request.query.sensorId, request.query.date),
  );

  app.post(
    '/devices/:id/orders',
    {
      config: { role: 'ROLE_APP_USER', device: { permission: 'VIEW_STATUS' }, transaction: true },
      schema: {
        tags: ['orders'],
        summary:
          "Orders a delivery for a level sensor of the device: the customer's request, or the dealer's " +
          'order for its customer (with planned_date: confirmed at once). One open order per tank (409)',
        params: deviceIdParams,
        body: orderCreateBody,
        response: { 201: orderDetailSchema, 400: errorSchema, ...refusals, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await orderSideOn(tx, actor, request.params.id);
      const id = await createOrder(tx, authorOf(request), request.params.id, side, request.body);
      reply.code(201).header('location', `/api/v2/orders/${id}`);
      return detail(tx, actor, id, side);
    },
  );

  app.get(
    '/orders',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['orders'],
        summary:
          "The dealer's orders: those of every device it deals for, newest first, filtered by state " +
          '(state[] repeated), overdue and device; x-total-count counts them all',
        querystring: ordersQuery,
        response: { 200: z.array(orderSchema), 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const { rows, total } = await ordersDealtBy(tx, actor, request.query);
      reply.header('x-total-count', String(total));
      return rows.map((row) => presentOrder(row, 'dealer', actor.id));
    },
  );

  app.get(
    '/orders/:id',
    {
      config: { role: 'ROLE_DEMO', transaction: true },
      schema: {
        tags: ['orders'],
        summary: 'One order with its history (who changed it when)',
        params: orderIdParams,
        response: { 200: orderDetailSchema, ...refusals },
      },
    },
    async (request) => detail(txOf(request), actorOf(request).user, request.params.id),
  );

  app.put(
    '/orders/:id',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['orders'],
        summary: "The dealer changes an order's quantity, window, planned date or note before its delivery",
        params: orderIdParams,
        body: orderUpdateBody,
        response: changeAnswers,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await sideFor(tx, actor, request.params.id);
      await updateOrder(tx, authorOf(request), request.params.id, side, request.body);
      return detail(tx, actor, request.params.id, side);
    },
  );

  app.post(
    '/orders/:id/request',
    {
      config: { role: 'ROLE_APP_USER', transaction: true },
      schema: {
        tags: ['orders'],
        summary: 'A proposal of the automatic replenishment taken up as an order',
        params: orderIdParams,
        response: changeAnswers,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await sideFor(tx, actor, request.params.id);
      await requestOrder(tx, authorOf(request), request.params.id, side);
      return detail(tx, actor, request.params.id, side);
    },
  );

  app.post(
    '/orders/:id/confirm',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['orders'],
        summary:
          'The dealer confirms an order (or a proposal) for a planned day, or plans it anew; the customer is told',
        params: orderIdParams,
        body: orderConfirmBody,
        response: changeAnswers,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await sideFor(tx, actor, request.params.id);
      await confirmOrder(tx, authorOf(request), request.params.id, side, request.body.plannedDate);
      return detail(tx, actor, request.params.id, side);
    },
  );

  app.post(
    '/orders/:id/reject',
    {
      config: { role: 'ROLE_APP_USER', transaction: true },
      schema: {
        tags: ['orders'],
        summary: 'The dealer turns down a request or a proposal, the customer a proposal, with a reason',
        params: orderIdParams,
        body: orderReasonBody,
        response: changeAnswers,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await sideFor(tx, actor, request.params.id);
      await rejectOrder(tx, authorOf(request), request.params.id, side, request.body.reason);
      return detail(tx, actor, request.params.id, side);
    },
  );

  app.post(
    '/orders/:id/cancel',
    {
      config: { role: 'ROLE_APP_USER', transaction: true },
      schema: {
        tags: ['orders'],
        summary:
          'Cancels an order with a reason: the customer its own request, the dealer any order not yet delivered',
        params: orderIdParams,
        body: orderReasonBody,
        response: changeAnswers,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await sideFor(tx, actor, request.params.id);
      await cancelOrder(tx, authorOf(request), request.params.id, side, request.body.reason);
      return detail(tx, actor, request.params.id, side);
    },
  );

  app.post(
    '/orders/:id/close',
    {
      config: { role: 'ROLE_ADMIN', transaction: true },
      schema: {
        tags: ['orders'],
        summary:
          "The dealer closes a delivered order by hand, where the tank's readings never show the delivery " +
          '(e.g. a broken sensor)',
        params: orderIdParams,
        response: changeAnswers,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const side = await sideFor(tx, actor, request.params.id);
      await closeOrder(tx, authorOf(request), request.params.id, side);
      return detail(tx, actor, request.params.id, side);
    },
  );

  app.get(
    '/devices/:id/replenishment',
    {
      config: { role: 'ROLE_ADMIN', device: { permission: 'EDIT' }, transaction: true },
      schema: {
        tags: ['orders'],
        summary: "The device's automatic replenishment (the dealer's): on or off, and the lead days",
        params: deviceIdParams,
        response: { 200: replenishmentSchema, ...refusals },
      },
    },
    async (request) => {
      const tx = txOf(request);
      await requireDealerOf(tx, actorOf(request).user, request.params.id);
      return replenishmentOf(tx, request.params.id);
    },
  );

  app.put(
    '/devices/:id/replenishment',
    {
      config: { role: 'ROLE_ADMIN', device: { permission: 'EDIT' }, transaction: true },
      schema: {
        tags: ['orders'],
        summary:
          'Switches the automatic replenishment on or off: the portal proposes an order lead_days before ' +
          "the forecast's reorder date",
        params: deviceIdParams,
        body: replenishmentBody,
        response: { 200: replenishmentSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request) => {
      const tx = txOf(request);
      await requireDealerOf(tx, actorOf(request).user, request.params.id);
      await setReplenishment(tx, authorOf(request), request.params.id, request.body);
      return replenishmentOf(tx, request.params.id);
    },
  );
}
