import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { aceBody, aceSchema, aceUpdateBody } from '@tankportal/shared/schemas/aces';
import type { Api, AppContext } from '../../../context.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { actorOf } from '../../../plugins/auth.ts';
import {
  accessEntriesOfDevice,
  accessEntryOrThrow,
  changeAccess,
  grantAccess,
  revokeAccess,
} from '../../../commands/access-entries.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from './devices.ts';

const aceParams = deviceIdParams.extend({ aceId: pathId() });

/**
 * Access entries of a device (the access tab): every
 * call needs DELETE, the access-managing permission. Nobody grants themselves or the owner, grants a
 * user twice or one they do not manage, or edits or deletes their own entry.
 */
export function aceRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/aces',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['aces'],
        summary: 'The access entries of a device, sorted by username',
        params: deviceIdParams,
        response: { 200: z.array(aceSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      await requireDevicePermission(db, actor, request.params.id, 'DELETE');
      return accessEntriesOfDevice(db, request.params.id);
    },
  );

  app.get(
    '/devices/:id/aces/:aceId',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['aces'],
        summary: 'One access entry of a device',
        params: aceParams,
        response: { 200: aceSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      await requireDevicePermission(db, actor, request.params.id, 'DELETE');
      return accessEntryOrThrow(db, request.params.id, request.params.aceId);
    },
  );

  app.post(
    '/devices/:id/aces',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['aces'],
        summary: 'Grants a user the listed permissions on the device',
        params: deviceIdParams,
        body: aceBody,
        response: { 201: aceSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const deviceId = request.params.id;
      await requireDevicePermission(db, actor, deviceId, 'DELETE');
      const id = await grantAccess(db, actor, deviceId, request.body);
      return reply
        .code(201)
        .header('location', `/api/v2/devices/${deviceId}/aces/${id}`)
        .send(await accessEntryOrThrow(db, deviceId, id));
    },
  );

  app.put(
    '/devices/:id/aces/:aceId',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['aces'],
        summary: 'Changes the permissions of an access entry (or moves it to another user)',
        params: aceParams,
        body: aceUpdateBody,
        response: { 200: aceSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const { id: deviceId, aceId } = request.params;
      await requireDevicePermission(db, actor, deviceId, 'DELETE');
      const id = await changeAccess(db, actor, deviceId, aceId, request.body);
      return accessEntryOrThrow(db, deviceId, id);
    },
  );

  app.delete(
    '/devices/:id/aces/:aceId',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['aces'],
        summary: 'Removes an access entry',
        params: aceParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { id: deviceId, aceId } = request.params;
      await requireDevicePermission(db, actor, deviceId, 'DELETE');
      await revokeAccess(db, actor, deviceId, aceId);
      return reply.code(204).send(null);
    },
  );
}
