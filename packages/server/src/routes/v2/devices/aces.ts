import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { aceBody, aceSchema, aceUpdateBody } from '@tankportal/shared/schemas/aces';
import type { Api, AppContext } from '../../../context.ts';
import { deviceAces, devices, type UserRow, users } from '../../../db/schema.ts';
import { forbidden, invalidFields, notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { userManagedBy } from '../../../policies/user-tree.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { presentAce } from '../../../presenters/ace.ts';

import { isUniqueViolation } from '../../../repositories/unique-violation.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from './devices.ts';

const aceParams = deviceIdParams.extend({ aceId: pathId() });
const conflict = () => invalidFields([{ path: 'userId', code: 'conflict', args: {} }]);

/**
 * Access entries of a device (the access tab): every
 * call needs DELETE, the access-managing permission. Nobody grants themselves or the owner, grants a
 * user twice or one they do not manage, or edits or deletes their own entry.
 */
export function aceRoutes(app: Api, { db }: AppContext) {
  async function acesOf(deviceId: number, aceId?: number) {
    const rows = await db
      .select({ ace: deviceAces, username: users.username })
      .from(deviceAces)
      .innerJoin(users, eq(users.id, deviceAces.userId))
      .where(
        and(eq(deviceAces.deviceId, deviceId), aceId === undefined ? undefined : eq(deviceAces.id, aceId)),
      )
      .orderBy(asc(sql`lower(${users.username})`), asc(deviceAces.id));
    return rows.map((row) => presentAce(row.ace, row.username));
  }

  async function aceOrThrow(deviceId: number, aceId: number) {
    const [ace] = await acesOf(deviceId, aceId);
    if (!ace) throw notFound();
    return ace;
  }

  /** The checks a user must pass to receive an entry on the device. */
  async function checkGrantee(actor: UserRow, deviceId: number, userId: number) {
    if (userId === actor.id)
      throw invalidFields([{ path: 'userId', code: 'invalid', args: { reason: 'self' } }]);
    const [device] = await db
      .select({ userId: devices.userId })
      .from(devices)
      .where(eq(devices.id, deviceId));
    if (device.userId === userId)
      throw invalidFields([{ path: 'userId', code: 'invalid', args: { reason: 'owner' } }]);
    if (!(await userManagedBy(db, actor, userId)))
      throw invalidFields([{ path: 'userId', code: 'invalid', args: {} }]);
    const [existing] = await db
      .select({ id: deviceAces.id })
      .from(deviceAces)
      .where(and(eq(deviceAces.deviceId, deviceId), eq(deviceAces.userId, userId)));
    if (existing) throw conflict();
  }

  /** The entry to change: 404 when not on this device, 403 when it is the actor's own. */
  async function changeableAce(actor: UserRow, deviceId: number, aceId: number) {
    const [ace] = await db
      .select()
      .from(deviceAces)
      .where(and(eq(deviceAces.id, aceId), eq(deviceAces.deviceId, deviceId)));
    if (!ace) throw notFound();
    if (ace.userId === actor.id) throw forbidden();
    return ace;
  }

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
      return acesOf(request.params.id);
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
      return aceOrThrow(request.params.id, request.params.aceId);
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
      const { userId, permissions } = request.body;
      await checkGrantee(actor, deviceId, userId);
      let id: number;
      try {
        [{ id }] = await db
          .insert(deviceAces)
          .values({ deviceId, userId, permissions })
          .returning({ id: deviceAces.id });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
      return reply
        .code(201)
        .header('location', `/api/v2/devices/${deviceId}/aces/${id}`)
        .send(await aceOrThrow(deviceId, id));
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
      const ace = await changeableAce(actor, deviceId, aceId);
      const userId = request.body.userId ?? ace.userId;
      if (userId !== ace.userId) await checkGrantee(actor, deviceId, userId);
      try {
        await db
          .update(deviceAces)
          .set({ userId, permissions: request.body.permissions })
          .where(eq(deviceAces.id, ace.id));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
      return aceOrThrow(deviceId, ace.id);
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
      const ace = await changeableAce(actor, deviceId, aceId);
      await db.delete(deviceAces).where(eq(deviceAces.id, ace.id));
      return reply.code(204).send(null);
    },
  );
}
