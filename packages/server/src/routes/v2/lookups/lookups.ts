import { z } from 'zod';
import type { Api, AppContext } from '../../../context.ts';
import { smsGatewaysByLabel } from '../../../repositories/sms-gateways.ts';
import { CONTENT_TYPES } from '../../../lookups/content-types.ts';
import { CONTENT_DENSITIES } from '../../../lookups/content-densities.ts';
import { MOBILE_PROVIDERS } from '../../../lookups/mobile-providers.ts';
import { COUNTRIES } from '../../../lookups/countries.ts';
import { TANK_GEOMETRIES } from '../../../lookups/tank-geometries.ts';
import { privateCache } from '../../../plugins/http-cache.ts';

/**
 * The fixed lookups change only with a new release: the browser keeps them ten minutes, then asks
 * again (ETag). The SMS gateways are rows an operator may change: asked again every time.
 */
const FIXED_LOOKUP_MAX_AGE_SECONDS = 600;

const localised = z.object({ de: z.string(), en: z.string() });

/** Shared lookup data the app loads at start-up. Any signed-in role. */
export function lookupRoutes(app: Api, { db }: AppContext) {
  const lookup = (
    path: string,
    item: z.ZodType,
    load: () => Promise<unknown[]> | unknown[],
    maxAgeSeconds = FIXED_LOOKUP_MAX_AGE_SECONDS,
  ) =>
    app.get(
      path,
      {
        config: { role: 'ROLE_DEMO' },
        schema: { tags: ['lookups'], response: { 200: z.array(item) } },
      },
      async (_request, reply) => {
        privateCache(reply, maxAgeSeconds);
        return load();
      },
    );

  lookup(
    '/sms-gateways',
    z.object({
      id: z.number(),
      label: z.string(),
      provider: z.string(),
      owner: z.string(),
      country: z.string(),
    }),
    () => smsGatewaysByLabel(db),
    0,
  );
  lookup('/content-types', z.object({ id: z.string(), name: localised, defaultDensity: z.number() }), () => [
    ...CONTENT_TYPES,
  ]);
  lookup(
    '/content-densities',
    z.object({ contentTypeId: z.string(), density: z.number(), label: localised }),
    () => [...CONTENT_DENSITIES],
  );
  lookup(
    '/mobile-providers',
    z.object({
      id: z.string(),
      name: z.string(),
      countryCode: z.string(),
      mcc: z.string(),
      mnc: z.array(z.string()),
    }),
    () => [...MOBILE_PROVIDERS],
  );
  lookup('/countries', z.object({ code: z.string(), name: localised, preferred: z.boolean() }), () => [
    ...COUNTRIES,
  ]);
  lookup('/tank-geometries', z.object({ id: z.number(), name: localised }), () => [...TANK_GEOMETRIES]);
}
