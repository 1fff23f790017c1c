import type { FastifyInstance } from 'fastify';
import type { FieldError } from '@tankportal/shared/field-errors';
import { isStorableText } from '@tankportal/shared/schemas/common';
import { HttpError, invalidFields, notFound } from './errors.ts';

/**
 * How deep a JSON body may nest. The deepest body of the API or the ingest has 4 levels (a net
 * batch's readings); the case conversion and the schemas recurse, so 10,000 levels overflowed
 * the stack (500).
 */
export const MAX_JSON_DEPTH = 32;

/** At most this many field errors name unstorable text: a flood of them helps nobody. */
const MAX_TEXT_ERRORS = 20;

type Container = Record<string, unknown> | unknown[];
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** Whether objects and arrays nest deeper than `limit`, found level by level without recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  let level: Container[] = isContainer(value) ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > limit) return true;
    const next: Container[] = [];
    for (const container of level)
      for (const child of Object.values(container)) if (isContainer(child)) next.push(child);
    level = next;
  }
  return false;
}

/**
 * JSON bodies are parsed by Fastify's own parser (secure-json-parse: no `__proto__` keys) and then
 * refused when they nest deeper than MAX_JSON_DEPTH, before any hook or schema walks them.
 * JSON.parse itself does not recurse (V8), so the check sees the whole value.
 */
export function registerJsonDepthLimit(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs 'string': the body is a string.
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
        const fieldError: FieldError = {
          path: '',
          code: 'invalid',
          args: { reason: 'depth', max: MAX_JSON_DEPTH },
        };
        return done(
          new HttpError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, [fieldError]),
          undefined,
        );
      }
      done(null, value);
    });
  });
}

/**
 * Field errors for every string and object key in `value` that PostgreSQL cannot store (a NUL or
 * a lone surrogate), with its dotted path; walked without recursion.
 */
export function unstorableTextErrors(value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const pending: [unknown, string[]][] = [[value, []]];
  for (let next = 0; next < pending.length && errors.length < MAX_TEXT_ERRORS; next++) {
    const [node, path] = pending[next];
    if (typeof node === 'string') {
      if (!isStorableText(node))
        errors.push({ path: path.join('.'), code: 'invalid', args: { reason: 'character' } });
    } else if (isContainer(node)) {
      for (const [key, child] of Object.entries(node)) {
        if (!isStorableText(key)) {
          errors.push({ path: path.join('.'), code: 'invalid', args: { reason: 'character' } });
          break;
        }
        pending.push([child, [...path, key]]);
      }
    }
  }
  return errors;
}

/**
 * Every string of an API request is stored or searched for: one check for all routes, after the
 * case conversion (paths in the client's terms) and before the schemas. A path parameter with such
 * text names no object (404); in the query or the body it is a field error (400).
 */
export function registerStorableTextCheck(api: FastifyInstance) {
  api.addHook('preValidation', async (request) => {
    if (unstorableTextErrors(request.params).length > 0) throw notFound();
    const errors = [...unstorableTextErrors(request.query), ...unstorableTextErrors(request.body)];
    if (errors.length > 0) throw invalidFields(errors);
  });
}
