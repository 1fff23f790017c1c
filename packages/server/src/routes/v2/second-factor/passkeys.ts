import { z } from 'zod';
import {
  passkeyList,
  passkeyRegistrationBody,
  passkeySummary,
  removePasskeyBody,
  webAuthnOptions,
} from '@tankportal/shared/schemas/passkeys';
import { pathId } from '@tankportal/shared/schemas/common';
import type { FastifyRequest } from 'fastify';
import type { Api, AppContext } from '../../../context.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import {
  addPasskey,
  passkeyRegistrationOptions,
  presentPasskey,
  removePasskey,
} from '../../../commands/passkeys.ts';
import { relyingPartyOf } from '../../../policies/passkeys.ts';
import { passkeysOf } from '../../../repositories/passkeys.ts';
import { whitelabelForHost } from '../../../repositories/whitelabels.ts';
import { errorSchema } from '../../schemas.ts';
import { ownUser } from './second-factor.ts';

const tags = ['second factor'];
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };

/**
 * The own passkeys as a second factor beside TOTP (decision 067): list, register, remove. As with
 * TOTP, demo accounts have none (`ROLE_APP_USER`), nobody adds or removes one for the user acted as,
 * and a session held for enrolment may add one. The sign-in's assertion is in auth/login.ts.
 */
export function passkeyRoutes(app: Api, { db, sessions }: AppContext) {
  /** The relying party is the host the page came from, named with its white-label's title. */
  const relyingParty = async (request: FastifyRequest) =>
    relyingPartyOf(request, (await whitelabelForHost(db, request.hostname))?.title ?? request.hostname);

  app.get(
    '/users/me/passkeys',
    {
      config: { role: 'ROLE_APP_USER', openBeforeSecondFactor: true },
      schema: {
        tags,
        summary: 'The own passkeys, oldest first (names and dates, never a key)',
        response: { 200: passkeyList, ...errors },
      },
    },
    async (request) => (await passkeysOf(db, ownUser(request).id)).map(presentPasskey),
  );

  app.post(
    '/users/me/passkeys/options',
    {
      config: { role: 'ROLE_APP_USER', openBeforeSecondFactor: true },
      schema: {
        tags,
        summary:
          "Begin adding a passkey: the options for the browser's WebAuthn create(), valid for 5 minutes",
        response: { 200: webAuthnOptions, ...errors },
      },
    },
    async (request) => passkeyRegistrationOptions(db, ownUser(request), await relyingParty(request)),
  );

  app.post(
    '/users/me/passkeys',
    {
      config: { role: 'ROLE_APP_USER', openBeforeSecondFactor: true },
      schema: {
        tags,
        summary:
          "Add a passkey: its name and the browser's answer to the options; it is a second factor from now on, the other sessions end",
        body: passkeyRegistrationBody,
        response: { 201: passkeySummary, ...errors },
      },
    },
    async (request, reply) => {
      const user = ownUser(request);
      const added = await addPasskey(db, authorOf(request), await relyingParty(request), request.body);
      await sessions.destroyOthers(user.id, actorOf(request).sessionId);
      return reply.code(201).send(added);
    },
  );

  app.delete(
    '/users/me/passkeys/:id',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags,
        summary: 'Remove one of the own passkeys with the password; the other sessions end',
        params: z.object({ id: pathId() }),
        body: removePasskeyBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = ownUser(request);
      await removePasskey(db, authorOf(request), request.params.id, request.body.password);
      await sessions.destroyOthers(user.id, actorOf(request).sessionId);
      return reply.code(204).send(null);
    },
  );
}
