import { z } from 'zod';
import {
  disableSecondFactorBody,
  recoveryCodesAnswer,
  secondFactorCodeBody,
  secondFactorEnrolment,
  secondFactorPolicy,
  secondFactorStatus,
} from '@tankportal/shared/schemas/second-factor';
import { hasRole } from '@tankportal/shared/roles';
import { pathId } from '@tankportal/shared/schemas/common';
import type { FastifyRequest } from 'fastify';
import type { Api, AppContext } from '../../../context.ts';
import { forbidden, notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import {
  beginEnrolment,
  confirmEnrolment,
  disableSecondFactor,
  resetSecondFactor,
  setSecondFactorPolicy,
} from '../../../commands/second-factor.ts';
import { visibleUser } from '../../../commands/user-accounts.ts';
import { qrCodeDataUrl } from '../../../presenters/qr-code.ts';
import {
  secondFactorOf,
  unusedRecoveryCodeCount,
  whitelabelRequiresSecondFactor,
} from '../../../repositories/second-factors.ts';
import { whitelabelForHost } from '../../../repositories/whitelabels.ts';
import { errorSchema } from '../../schemas.ts';

const tags = ['second factor'];
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };

/** The signed-in user acting as itself: nobody enrols or drops a factor for the impersonated. */
export const ownUser = (request: FastifyRequest) => {
  const actor = actorOf(request);
  if (actor.user.id !== actor.realUser.id) throw forbidden();
  return actor.user;
};

/**
 * The second sign-in factor (decision 067): the own TOTP factor (enrol, confirm, switch off), a
 * master's reset of a user's factor and the white-label's policy. API tokens are not affected: a
 * token stands for itself and never asks for a code.
 */
export function secondFactorRoutes(app: Api, { db, sessions }: AppContext) {
  const hostWhitelabel = async (request: FastifyRequest) => {
    const whitelabel = await whitelabelForHost(db, request.hostname);
    if (!whitelabel) throw notFound();
    return whitelabel;
  };

  app.get(
    '/users/me/second-factor',
    {
      // Demo accounts have none and cannot enrol one.
      config: { role: 'ROLE_APP_USER', openBeforeSecondFactor: true },
      schema: {
        tags,
        summary: 'The own second factor: active or not, recovery codes left',
        response: { 200: secondFactorStatus, ...errors },
      },
    },
    async (request) => {
      const user = ownUser(request);
      const factor = await secondFactorOf(db, user.id);
      const active = Boolean(factor?.confirmedAt);
      const whitelabelId = user.whitelabelId ?? (await hostWhitelabel(request)).id;
      return {
        active,
        recoveryCodesLeft: active ? await unusedRecoveryCodeCount(db, user.id) : 0,
        required:
          hasRole(user.role, 'ROLE_ADMIN') && (await whitelabelRequiresSecondFactor(db, whitelabelId)),
      };
    },
  );

  app.post(
    '/users/me/second-factor',
    {
      config: { role: 'ROLE_APP_USER', openBeforeSecondFactor: true },
      schema: {
        tags,
        summary:
          'Begin enrolling a TOTP factor: a new secret, as text and QR code; active only once a code confirms it',
        response: { 200: secondFactorEnrolment, ...errors },
      },
    },
    async (request) => {
      const user = ownUser(request);
      const { secret, uri } = await beginEnrolment(db, user, (await hostWhitelabel(request)).title);
      return { secret, uri, qrCode: qrCodeDataUrl(uri) };
    },
  );

  app.post(
    '/users/me/second-factor/confirmation',
    {
      config: { role: 'ROLE_APP_USER', openBeforeSecondFactor: true },
      schema: {
        tags,
        summary:
          'Confirm the enrolment with a first code: the factor is active, the ten recovery codes are answered this once, the other sessions end',
        body: secondFactorCodeBody,
        response: { 200: recoveryCodesAnswer, ...errors },
      },
    },
    async (request) => {
      const user = ownUser(request);
      const recoveryCodes = await confirmEnrolment(db, authorOf(request), request.body.code);
      await sessions.destroyOthers(user.id, actorOf(request).sessionId);
      return { recoveryCodes };
    },
  );

  app.delete(
    '/users/me/second-factor',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags,
        summary:
          'Switch the own second factor off with a current code or the password; the other sessions end',
        body: disableSecondFactorBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = ownUser(request);
      await disableSecondFactor(db, authorOf(request), request.body);
      await sessions.destroyOthers(user.id, actorOf(request).sessionId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/users/:id/second-factor',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags,
        summary: "A master resets a user's second factor (a lost phone); the user's sessions end",
        params: z.object({ id: pathId() }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const author = authorOf(request);
      const user = await visibleUser(db, author.actor.user, request.params.id);
      if (user.id === author.actor.realUser.id) throw forbidden();
      await resetSecondFactor(db, author, user);
      await sessions.destroyAll(user.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/whitelabels/current/second-factor-policy',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags,
        summary: "The white-label's second-factor policy",
        response: { 200: secondFactorPolicy, ...errors },
      },
    },
    async (request) => {
      const whitelabel = await hostWhitelabel(request);
      return { requiredFromAdmin: whitelabel.secondFactorRequired };
    },
  );

  app.put(
    '/whitelabels/current/second-factor-policy',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags,
        summary:
          "Set the white-label's policy: users from admin up must enrol a second factor at their next sign-in",
        body: secondFactorPolicy,
        response: { 200: secondFactorPolicy, ...errors },
      },
    },
    async (request) => {
      const whitelabel = await hostWhitelabel(request);
      await setSecondFactorPolicy(db, authorOf(request), whitelabel, request.body.requiredFromAdmin);
      return request.body;
    },
  );
}
