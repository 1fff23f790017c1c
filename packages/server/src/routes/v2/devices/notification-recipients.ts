import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  offeredContactSchema,
  recipientBody,
  recipientEventsBody,
  recipientSchema,
} from '@tankportal/shared/schemas/notification-recipients';
import type { Api, AppContext } from '../../../context.ts';
import {
  addRecipient,
  changeRecipientEvents,
  offeredContacts,
  recipientOrThrow,
  recipientsOfDevice,
  removeRecipient,
} from '../../../commands/notification-recipients.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from './devices.ts';

const recipientParams = deviceIdParams.extend({
  recipientId: pathId(),
});

/**
 * Who hears of a device's events, on which channels. Reading needs
 * VIEW_CONFIGURATION, changing EDIT. The contact of a new recipient comes from the actor's book or,
 * when the actor manages the device's owner, from the owner's (decision 034, a narrowing of 020).
 */
export function notificationRecipientRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/recipient-contacts',
    {
      config: { role: 'ROLE_APP_USER', device: { permission: 'EDIT' } },
      schema: {
        tags: ['notification-recipients'],
        summary:
          'The contacts a new recipient of the device can be chosen from: the actor’s, and the ' +
          'device owner’s when the actor manages the owner; each names its book’s owner',
        params: deviceIdParams,
        response: { 200: z.array(offeredContactSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return offeredContacts(db, actor, request.params.id);
    },
  );

  app.get(
    '/devices/:id/notification-recipients',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_CONFIGURATION' } },
      schema: {
        tags: ['notification-recipients'],
        summary: 'The notification recipients of a device, sorted by contact handle',
        params: deviceIdParams,
        response: { 200: z.array(recipientSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      return recipientsOfDevice(db, request.params.id);
    },
  );

  app.get(
    '/devices/:id/notification-recipients/:recipientId',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_CONFIGURATION' } },
      schema: {
        tags: ['notification-recipients'],
        summary: 'One notification recipient of a device',
        params: recipientParams,
        response: { 200: recipientSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      return recipientOrThrow(db, request.params.id, request.params.recipientId);
    },
  );

  app.post(
    '/devices/:id/notification-recipients',
    {
      config: { role: 'ROLE_APP_USER', device: { permission: 'EDIT' } },
      schema: {
        tags: ['notification-recipients'],
        summary:
          'Makes an offered contact (contactId, see recipient-contacts) or a new contact of the ' +
          'actor (contact, created with the recipient in one transaction) a recipient of the device’s events',
        params: deviceIdParams,
        body: recipientBody,
        response: { 201: recipientSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const deviceId = request.params.id;
      const id = await addRecipient(db, authorOf(request), deviceId, request.body);
      return reply
        .code(201)
        .header('location', `/api/v2/devices/${deviceId}/notification-recipients/${id}`)
        .send(await recipientOrThrow(db, deviceId, id));
    },
  );

  app.put(
    '/devices/:id/notification-recipients/:recipientId',
    {
      config: { role: 'ROLE_APP_USER', device: { permission: 'EDIT' } },
      schema: {
        tags: ['notification-recipients'],
        summary: 'Changes the events and channels of a recipient',
        params: recipientParams,
        body: recipientEventsBody,
        response: { 200: recipientSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { id: deviceId, recipientId } = request.params;
      await changeRecipientEvents(db, authorOf(request), deviceId, recipientId, request.body.events);
      return recipientOrThrow(db, deviceId, recipientId);
    },
  );

  app.delete(
    '/devices/:id/notification-recipients/:recipientId',
    {
      config: { role: 'ROLE_APP_USER', device: { permission: 'EDIT' } },
      schema: {
        tags: ['notification-recipients'],
        summary: 'Removes a recipient from the device (the contact stays in its book)',
        params: recipientParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const { id: deviceId, recipientId } = request.params;
      await removeRecipient(db, authorOf(request), deviceId, recipientId);
      return reply.code(204).send(null);
    },
  );
}
