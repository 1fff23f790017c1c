import { z } from 'zod';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { privateCache } from '../../../plugins/http-cache.ts';
import { whitelabelConfigMap, whitelabelForHost } from '../../../repositories/whitelabels.ts';

const localised = z.object({ de: z.string(), en: z.string() });

export const whitelabelSchema = z.object({
  id: z.number(),
  name: z.string(),
  isDefault: z.boolean(),
  title: z.string(),
  faviconUrl: z.string().nullable(),
  theme: z.object({ primary: z.string(), secondary: z.string() }),
  headerImageUrl: z.string().nullable(),
  registrationUrl: z.string().nullable(),
  announcement: localised.nullable(),
  oilPriceLinks: z.array(z.object({ label: z.string(), url: z.string() })),
  legal: z.object({ imprint: localised, privacy: localised }),
  resetDataEnabled: z.boolean(),
});

/** Public: the login page needs the white-label before anyone signs in. */
export function whitelabelRoutes(app: Api, { db, config }: AppContext) {
  app.get(
    '/whitelabels/current',
    {
      config: { role: 'public' },
      schema: {
        tags: ['white-label'],
        summary: 'The white-label of the request host',
        response: { 200: whitelabelSchema },
      },
    },
    async (request) => {
      const row = await whitelabelForHost(db, request.hostname);
      if (!row) throw notFound();
      // Billing facts (VAT rate, the invoice seller) are the master's, not the login page's.
      const {
        hosts: _hosts,
        createdAt: _createdAt,
        vatRate: _vatRate,
        invoiceSeller: _invoiceSeller,
        ...whitelabel
      } = row;
      return whitelabel;
    },
  );

  app.get(
    '/config/whitelabel',
    {
      config: { role: 'public' },
      schema: {
        tags: ['white-label'],
        summary: 'Key/value configuration of the request host white-label, with the map tile service',
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async (request, reply) => {
      const row = await whitelabelForHost(db, request.hostname);
      if (!row) throw notFound();
      // The same for everyone on this host, but an admin may change it: revalidated on every use.
      privateCache(reply, 0);
      // The tile service is the installation's (MAP_TILE_URL): the CSP is built for that host.
      return {
        ...(await whitelabelConfigMap(db, row.id)),
        'ui.map.tileUrl': config.mapTileUrl,
        'ui.map.tileAttribution': config.mapTileAttribution,
      };
    },
  );
}
