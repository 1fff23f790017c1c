import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { aceBody, aceSchema, aceUpdateBody } from '@tankportal/shared/schemas/aces';
import type { Api, AppContext } from '../../../context.ts';
import { authorOf, txOf } from '../../../plugins/route-chain.ts';
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

/** Every call needs DELETE, the permission that manages a device's access. */
const MANAGES_ACCESS = { permission: 'DELETE' } as const;

/**
 * Access entries of a device (the access tab). Nobody grants themselves or the owner, grants a
 * user twice or one they do not manage, or edits or deletes their own entry.
 */
export function aceRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/aces',
    {
      config: { role: 'ROLE_DEMO', device: MANAGES_ACCESS },
      schema: {
        tags: ['aces'],
        summary: 'The access entries of a device, sorted by username',
        params: deviceIdParams,
        response: { 200: z.array(aceSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => accessEntriesOfDevice(db, request.params.id),
  );

  app.get(
    '/devices/:id/aces/:aceId',
    {
      config: { role: 'ROLE_DEMO', device: MANAGES_ACCESS },
      schema: {
        tags: ['aces'],
        summary: 'One access entry of a device',
        params: aceParams,
        response: { 200: aceSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => accessEntryOrThrow(db, request.params.id, request.params.aceId),
  );

  app.post(
    '/devices/:id/aces',
    {
      config: { role: 'ROLE_APP_USER', device: MANAGES_ACCESS, transaction: true },
      schema: {
        tags: ['aces'],
        summary: 'Grants a user the listed permissions on the device',
        params: deviceIdParams,
        body: aceBody,
        response: { 201: aceSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const tx = txOf(request);
      const deviceId = request.params.id;
      const id = await grantAccess(tx, authorOf(request), deviceId, request.body);
      reply.code(201).header('location', `/api/v2/devices/${deviceId}/aces/${id}`);
      return accessEntryOrThrow(tx, deviceId, id);
    },
  );

  app.put(
    '/devices/:id/aces/:aceId',
    {
      config: { role: 'ROLE_APP_USER', device: MANAGES_ACCESS, transaction: true },
      schema: {
        tags: ['aces'],
        summary: 'Changes the permissions of an access entry (or moves it to another user)',
        params: aceParams,
        body: aceUpdateBody,
        response: { 200: aceSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const tx = txOf(request);
      const { id: deviceId, aceId } = request.params;
      const id = await changeAccess(tx, authorOf(request), deviceId, aceId, request.body);
      return accessEntryOrThrow(tx, deviceId, id);
    },
  );

  app.delete(
    '/devices/:id/aces/:aceId',
    {
      config: { role: 'ROLE_APP_USER', device: MANAGES_ACCESS, transaction: true },
      schema: {
        tags: ['aces'],
        summary: 'Removes an access entry',
        params: aceParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const { id: deviceId, aceId } = request.params;
      await revokeAccess(txOf(request), authorOf(request), deviceId, aceId);
      reply.code(204);
      return null;
    },
  );
}
