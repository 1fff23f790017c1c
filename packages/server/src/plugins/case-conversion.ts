import type { FastifyInstance } from 'fastify';
import camelcaseKeys from 'camelcase-keys';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Body paths (camelCase, dotted) whose values are opaque JSON and keep their keys. */
    opaqueBodyPaths?: string[];
  }
}

// Keys with a dot are configuration keys such as `ui.devices.sort.by`: kept as they are.
// A leading underscore marks a control parameter such as `_impersonate_user`: kept too.
const KEEP = [/\./, /^_/];

/** Requests arrive in snake_case (the API's convention); handlers and schemas speak camelCase. */
export function registerCaseConversion(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (request.body && typeof request.body === 'object') {
      const stopPaths = request.routeOptions.config.opaqueBodyPaths ?? [];
      request.body = camelcaseKeys(request.body as Record<string, unknown>, {
        deep: true,
        exclude: KEEP,
        stopPaths,
      });
    }
    if (request.query && typeof request.query === 'object') {
      request.query = camelcaseKeys(request.query as Record<string, unknown>, { exclude: KEEP });
    }
  });
}
