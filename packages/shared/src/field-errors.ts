/**
 * The one error shape of every 4xx answer: a message plus field errors that the web maps onto
 * form fields. `path` is the field's dotted path in
 * snake_case request terms converted to the camelCase the client uses.
 */
export const FIELD_ERROR_CODES = [
  'required',
  'length_between',
  'min_length',
  'max_length',
  'min',
  'max',
  'password_mismatch',
  'conflict',
  'invalid',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export interface FieldError {
  path: string;
  code: FieldErrorCode;
  args: Record<string, string | number>;
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  fieldErrors: FieldError[];
}

/** The parts of a zod issue the mapping reads (zod's own issue type, loosened for both sides). */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  params?: { code?: FieldErrorCode; args?: Record<string, string | number> };
}

const MESSAGE_CODES = new Set<string>(FIELD_ERROR_CODES);

/**
 * Turns a zod issue into the API's field error. Schemas mark "must not be empty" with the
 * message `required` and custom rules with `params.code`; lengths and numeric bounds map by origin.
 */
export function toFieldError(issue: IssueLike): FieldError {
  const path = issue.path.map(String).join('.');
  if (issue.params?.code) return { path, code: issue.params.code, args: issue.params.args ?? {} };
  if (MESSAGE_CODES.has(issue.message)) return { path, code: issue.message as FieldErrorCode, args: {} };
  const isText = issue.origin === 'string' || issue.origin === 'array';
  if (issue.code === 'too_small') {
    const min = Number(issue.minimum);
    if (isText)
      return min <= 1 ? { path, code: 'required', args: {} } : { path, code: 'min_length', args: { min } };
    return { path, code: 'min', args: { min } };
  }
  if (issue.code === 'too_big') {
    const max = Number(issue.maximum);
    return isText ? { path, code: 'max_length', args: { max } } : { path, code: 'max', args: { max } };
  }
  if (issue.code === 'invalid_type' && /received undefined|received null/.test(issue.message)) {
    return { path, code: 'required', args: {} };
  }
  return { path, code: 'invalid', args: {} };
}
