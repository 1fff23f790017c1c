import { z } from 'zod';
import { configGetQuery, configItemSchema, configPutBody } from '@tankportal/shared/schemas/config';
import type { Api, AppContext } from '../../../context.ts';
import { authoriseSettings, loadSettings, saveSettings } from '../../../commands/settings.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { whitelabelForHost } from '../../../repositories/whitelabels.ts';
import { errorSchema } from '../../schemas.ts';

const answer = {
  200: z.array(configItemSchema),
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
};

/** The settings store: white-label defaults, a user's own and per-device settings. */
export function configRoutes(app: Api, { db }: AppContext) {
  const hostWhitelabelId = async (host: string) => {
    const whitelabel = await whitelabelForHost(db, host);
    if (!whitelabel) throw notFound();
    return whitelabel.id;
  };

  app.get(
    '/config',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['settings'],
        summary: 'Settings by `params[]=obj:id:key` (obj whitelabel|user|device_user); null when unset',
        querystring: configGetQuery,
        response: answer,
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const refs = await authoriseSettings(
        db,
        actor,
        await hostWhitelabelId(request.hostname),
        request.query.params,
        'read',
      );
      return loadSettings(db, refs);
    },
  );

  app.put(
    '/config',
    {
      // A value is the setting's own JSON: its keys are not converted.
      config: { role: 'ROLE_DEMO', opaqueBodyPaths: ['value'] },
      schema: {
        tags: ['settings'],
        summary: 'Saves settings, all or none; a null value removes the setting',
        body: configPutBody,
        response: answer,
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const refs = await authoriseSettings(
        db,
        actor,
        await hostWhitelabelId(request.hostname),
        request.body,
        'write',
      );
      return saveSettings(
        db,
        refs,
        request.body.map((item) => item.value),
      );
    },
  );
}
