import { z } from 'zod';
import { hasRole } from '@tankportal/shared/roles';
import {
  activeFlagBody,
  assignToUserBody,
  commentBody,
  metadataBody,
  publicUrlBody,
} from '@tankportal/shared/schemas/device-metadata';
import { deviceDetailSchema } from '@tankportal/shared/schemas/devices';
import type { Api, AppContext } from '../../../context.ts';
import { requireAcceptedDebtorIdent } from '../../../billing/accounting/debtor-ident.ts';
import type { Executor } from '../../../db/client.ts';
import type { UserRow } from '../../../db/schema.ts';
import {
  assignDevice,
  deleteDevice,
  setDeviceNotes,
  setPublicUrlAccess,
  updateMetadata,
} from '../../../commands/device-lifecycle.ts';
import { resetDeviceData, resetGpsData } from '../../../commands/reset-device-data.ts';
import { isCountryCode } from '../../../lookups/countries.ts';
import { forbidden, invalidFields, notFound } from '../../../http-error.ts';
import { devicePermissions, type DevicePermissions } from '../../../policies/device-access.ts';
import { userManagedBy } from '../../../policies/user-tree.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf, deviceAccessOf, txOf } from '../../../plugins/route-chain.ts';

import { findDeviceRow } from '../../../repositories/devices.ts';
import { whitelabelForHost } from '../../../repositories/whitelabels.ts';
import { errorSchema } from '../../schemas.ts';
import { loadDeviceDetail } from './device-detail.ts';
import { deviceIdParams } from './devices.ts';

/** The country must be one GET /v2/countries offers. */
export function requireKnownCountry(countryCode: string, path = 'address.countryCode') {
  if (!isCountryCode(countryCode)) throw invalidFields([{ path, code: 'invalid', args: {} }]);
}

/**
 * Moving a device to another user (metadata's user selector, assign-to-user): an admin or above
 * holding DELETE (the access-managing permission) on it, to a user it manages; 403 otherwise.
 */
async function requireOwnerChange(db: Executor, actor: UserRow, access: DevicePermissions, userId: number) {
  if (!hasRole(actor.role, 'ROLE_ADMIN') || !access.permissions.includes('DELETE')) throw forbidden();
  if (!(await userManagedBy(db, actor, userId))) throw forbidden();
}

async function ownerOf(db: Executor, deviceId: number): Promise<number> {
  const device = await findDeviceRow(db, deviceId);
  if (!device) throw notFound();
  return device.userId;
}

/** What the metadata tab's calls need on the device; moving or deleting it needs DELETE. */
const EDITS = { permission: 'EDIT' } as const;
const MANAGES = { permission: 'DELETE' } as const;

const detailResponses = {
  200: deviceDetailSchema,
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
};
const emptyResponses = {
  204: z.null(),
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
};

/**
 * The metadata tab and the lifecycle of a device: base
 * data, comments, public page, active flag, owner, reset and delete. Demo accounts are read-only
 * (403 before anything else); a device the actor may not see answers 404, a missing permission 403.
 */
export function deviceMetadataRoutes(app: Api, { db, deviceDirectory, config }: AppContext) {
  app.put(
    '/devices/:id/metadata',
    {
      config: { role: 'ROLE_APP_USER', device: EDITS, transaction: true },
      schema: {
        tags: ['devices'],
        summary:
          'Base data: name, project, address; userId moves the device (admin with DELETE, managed user)',
        params: deviceIdParams,
        body: metadataBody,
        response: detailResponses,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const { id } = request.params;
      const { userId, ...base } = request.body;
      // The form sends the current owner along: only a different user is a move.
      let ownerId: number | undefined;
      if (userId != null && userId !== (await ownerOf(tx, id))) {
        await requireOwnerChange(tx, actor, deviceAccessOf(request), userId);
        ownerId = userId;
      }
      requireKnownCountry(base.address.countryCode);
      await updateMetadata(tx, id, { ...base, ownerId }, authorOf(request));
      return loadDeviceDetail(tx, actor, id);
    },
  );

  app.put(
    '/devices/:id/comment',
    {
      config: { role: 'ROLE_APP_USER', device: EDITS, transaction: true },
      schema: {
        tags: ['devices'],
        summary: 'The comment shown on the status page; empty removes it',
        params: deviceIdParams,
        body: commentBody,
        response: detailResponses,
      },
    },
    async (request) => {
      const tx = txOf(request);
      await setDeviceNotes(tx, request.params.id, { comment: request.body.content }, authorOf(request));
      return loadDeviceDetail(tx, actorOf(request).user, request.params.id);
    },
  );

  app.put(
    '/devices/:id/master-comment',
    {
      config: { role: 'ROLE_MASTER', device: EDITS, transaction: true },
      schema: {
        tags: ['devices'],
        summary: 'The comment only masters see (master)',
        params: deviceIdParams,
        body: commentBody,
        response: detailResponses,
      },
    },
    async (request) => {
      const tx = txOf(request);
      await setDeviceNotes(tx, request.params.id, { masterComment: request.body.content }, authorOf(request));
      return loadDeviceDetail(tx, actorOf(request).user, request.params.id);
    },
  );

  app.put(
    '/devices/:id/public-url',
    {
      config: { role: 'ROLE_APP_USER', device: EDITS, transaction: true },
      schema: {
        tags: ['devices'],
        summary: 'Switches the public status page on or off (its link token is made on first enabling)',
        params: deviceIdParams,
        body: publicUrlBody,
        response: detailResponses,
      },
    },
    async (request) => {
      const tx = txOf(request);
      await setPublicUrlAccess(tx, request.params.id, request.body.publicUrlAccessEnabled, authorOf(request));
      return loadDeviceDetail(tx, actorOf(request).user, request.params.id);
    },
  );

  app.put(
    '/devices/:id/active-flag',
    {
      config: { role: 'ROLE_APP_USER', device: EDITS, transaction: true },
      schema: {
        tags: ['devices'],
        summary: 'Activates or deactivates the device (an inactive device notifies nobody)',
        params: deviceIdParams,
        body: activeFlagBody,
        response: detailResponses,
      },
    },
    async (request) => {
      const tx = txOf(request);
      await setDeviceNotes(tx, request.params.id, { active: request.body.active }, authorOf(request));
      return loadDeviceDetail(tx, actorOf(request).user, request.params.id);
    },
  );

  app.put(
    '/devices/:id/assign-to-user',
    {
      config: { role: 'ROLE_ADMIN', device: MANAGES, transaction: true },
      schema: {
        tags: ['devices'],
        summary:
          'Hands the device to a user the actor manages, optionally with name, address and debtor (master)',
        params: deviceIdParams,
        body: assignToUserBody,
        response: detailResponses,
      },
    },
    async (request) => {
      const tx = txOf(request);
      const actor = actorOf(request).user;
      const { id } = request.params;
      const { userId, name, address, debtorIdent } = request.body;
      await requireOwnerChange(tx, actor, deviceAccessOf(request), userId);
      const isMaster = hasRole(actor.role, 'ROLE_MASTER');
      // The debtor is a master's; others may send it empty along.
      if (debtorIdent && !isMaster) throw forbidden();
      if (isMaster) requireAcceptedDebtorIdent(config, 'debtorIdent', debtorIdent);
      if (address) requireKnownCountry(address.countryCode);
      const assignment = { userId, name, address, debtorIdent: isMaster ? debtorIdent : undefined };
      await assignDevice(tx, id, assignment, authorOf(request));
      return loadDeviceDetail(tx, actor, id);
    },
  );

  app.delete(
    '/devices/:id',
    {
      config: { role: 'ROLE_MASTER', device: MANAGES, transaction: true },
      schema: {
        tags: ['devices'],
        summary: 'Deletes the device with its data, access entries, recipients and messages (master)',
        params: deviceIdParams,
        response: emptyResponses,
      },
    },
    async (request, reply) => {
      if (!(await deleteDevice(txOf(request), deviceDirectory, request.params.id, authorOf(request))))
        throw notFound();
      reply.code(204);
      return null;
    },
  );

  app.post(
    '/devices/:id/reset-data',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['devices'],
        summary:
          'Removes measurements, consumption and alarms (master; or EDIT where the white-label allows it)',
        params: deviceIdParams,
        response: emptyResponses,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { id } = request.params;
      const access = (await devicePermissions(db, actor, [id])).get(id);
      if (!access) throw notFound();
      if (!hasRole(actor.role, 'ROLE_MASTER')) {
        // The white-label the actor works in is the one the web shows the reset button for.
        const whitelabel = await whitelabelForHost(db, request.hostname);
        if (!whitelabel?.resetDataEnabled || !access.permissions.includes('EDIT')) throw forbidden();
      }
      if (!(await resetDeviceData(db, id, authorOf(request)))) throw notFound();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/devices/:id/reset-gps-data',
    {
      config: { role: 'ROLE_MASTER', device: EDITS, transaction: true },
      schema: {
        tags: ['devices'],
        summary: 'Forgets the last reported location (master)',
        params: deviceIdParams,
        response: emptyResponses,
      },
    },
    async (request, reply) => {
      if (!(await resetGpsData(txOf(request), request.params.id, authorOf(request)))) throw notFound();
      reply.code(204);
      return null;
    },
  );
}
