import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldError } from '@tankportal/shared/field-errors';
import { toFieldError } from '@tankportal/shared/field-errors';
import { errorBody, HttpError } from '../http-error.ts';
import { isConnectionLost } from '../db/connection-lost.ts';

/** Seconds a client waits before it repeats a request the database could not take. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** An answer names at most this many field errors (a body of 100,000 bad items has as many). */
const MAX_FIELD_ERRORS = 100;

/** Each field error once (the branches of a union report the same one), at most MAX_FIELD_ERRORS. */
function distinct(fieldErrors: FieldError[]): FieldError[] {
  const seen = new Map(fieldErrors.map((fieldError) => [JSON.stringify(fieldError), fieldError]));
  return [...seen.values()].slice(0, MAX_FIELD_ERRORS);
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send(errorBody(error.statusCode, error.message, error.fieldErrors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A path that is not an object's id (`/devices/0x6`, `/devices/2147483648`) names no object.
      if (error.validationContext === 'params') return reply.code(404).send(errorBody(404, 'Not Found'));
      const fieldErrors = error.validation.map((v) =>
        toFieldError({
          ...v.params,
          code: v.keyword,
          message: v.message ?? '',
          path: v.instancePath.split('/').filter(Boolean),
        }),
      );
      return reply.code(400).send(errorBody(400, 'Invalid input', distinct(fieldErrors)));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (rate limit, body too large, bad JSON) may carry headers such as Retry-After.
      const { headers } = error as FastifyError & { headers?: Record<string, string> };
      if (headers) reply.headers(headers);
      return reply.code(status).send(errorBody(status, error.message));
    }
    if (isConnectionLost(error)) {
      // The database is away for a moment (restart, failover, a cut connection): the client repeats
      // the request a moment later (the ingest's stores are idempotent, a device simply repeats).
      request.log.warn(`request failed: database unavailable: ${error.message}`);
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(errorBody(503, 'Service Unavailable'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(500, 'Internal Server Error'));
  });
}
