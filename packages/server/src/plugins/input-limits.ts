import type { FastifyInstance } from 'fastify';
import type { FieldError } from '@tankportal/shared/field-errors';
import { isStorableText } from '@tankportal/shared/schemas/common';
import { HttpError, invalidFields, notFound } from '../http-error.ts';

/**
 * The shape a JSON body may have. The deepest body of the API or the ingest has 4 levels and the
 * largest about 6,000 keys and items (a net batch of 100 reports). The case conversion and the
 * schemas recurse, so 10,000 levels overflowed the stack (500); and 300,000 empty items within the
 * 1 MB body limit kept a process busy for over a second before their 400.
 */
export const JSON_LIMITS = { depth: 32, entries: 20_000 } as const;

/** At most this many field errors name unstorable text: a flood of them helps nobody. */
const MAX_TEXT_ERRORS = 20;

type Container = Record<string, unknown> | unknown[];
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/**
 * Which limit a parsed JSON value exceeds, if any: objects and arrays nested deeper than
 * `depth`, or more than `entries` keys and items in all. Walked level by level, without recursion.
 */
export function exceededJsonLimit(
  value: unknown,
  limits: { depth: number; entries: number } = JSON_LIMITS,
): 'depth' | 'entries' | null {
  let entries = 0;
  let level: Container[] = isContainer(value) ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > limits.depth) return 'depth';
    const next: Container[] = [];
    for (const container of level) {
      const children = Object.values(container);
      entries += children.length;
      if (entries > limits.entries) return 'entries';
      for (const child of children) if (isContainer(child)) next.push(child);
    }
    level = next;
  }
  return null;
}

const JSON_LIMIT_MESSAGES = {
  depth: `JSON nested deeper than ${JSON_LIMITS.depth} levels`,
  entries: `JSON with more than ${JSON_LIMITS.entries} keys and items`,
};

/**
 * JSON bodies are parsed by Fastify's own parser (secure-json-parse: no `__proto__` keys) and then
 * refused (400) beyond JSON_LIMITS, before any hook or schema walks them. JSON.parse itself does
 * not recurse (V8), so the check sees the whole value.
 */
export function registerJsonLimits(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs 'string': the body is a string.
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const exceeded = exceededJsonLimit(value);
      if (!exceeded) return done(null, value);
      const fieldError: FieldError = {
        path: '',
        code: 'invalid',
        args: { reason: exceeded, max: JSON_LIMITS[exceeded] },
      };
      done(new HttpError(400, JSON_LIMIT_MESSAGES[exceeded], [fieldError]), undefined);
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
