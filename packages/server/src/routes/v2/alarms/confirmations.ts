import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { alarmSchema } from '@tankportal/shared/schemas/devices';
import { confirmationBody, thresholdConfirmationSchema } from '@tankportal/shared/schemas/confirmation';
import type { Api, AppContext } from '../../../context.ts';
import { confirmAlarm, confirmThreshold } from '../../../commands/confirmations.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { presentAlarm } from '../../../presenters/alarm.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from '../devices/devices.ts';

const alarmIdParams = z.object({ alarmId: pathId() });
const failures = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** Alarm and threshold confirmation. */
export function confirmationRoutes(app: Api, { db }: AppContext) {
  app.put(
    '/alarms/:alarmId/confirmation',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['alarms'],
        summary: 'Confirms an alarm: seen (notifications go on) or disregard (they stop)',
        params: alarmIdParams,
        body: confirmationBody,
        response: { 200: alarmSchema, ...failures },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return presentAlarm(await confirmAlarm(db, actor, request.params.alarmId, request.body.status));
    },
  );

  app.delete(
    '/alarms/:alarmId/confirmation',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['alarms'],
        summary: 'Revokes the confirmation of an alarm (confirmationStatus null)',
        params: alarmIdParams,
        response: { 200: alarmSchema, ...failures },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return presentAlarm(await confirmAlarm(db, actor, request.params.alarmId, null));
    },
  );

  app.put(
    '/devices/:id/threshold-confirmation',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['alarms'],
        summary: 'Confirms the threshold notice of a device: seen or disregard',
        params: deviceIdParams,
        body: confirmationBody,
        response: { 200: thresholdConfirmationSchema, ...failures },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return confirmThreshold(db, actor, request.params.id, request.body.status);
    },
  );

  app.delete(
    '/devices/:id/threshold-confirmation',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['alarms'],
        summary: 'Revokes the threshold confirmation of a device',
        params: deviceIdParams,
        response: { 200: thresholdConfirmationSchema, ...failures },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return confirmThreshold(db, actor, request.params.id, null);
    },
  );
}
