import { STATUS_CODES } from 'node:http';
import type { ErrorBody, FieldError } from '@tankportal/shared/field-errors';

// A leaf module (it imports nothing of the server): policies, commands, ingest and routes throw
// these, the error-mapping plugin (plugins/errors.ts) renders them. Plugins are wiring, not a
// library for the layers below them.

/** A 4xx answer in the one error shape; thrown by handlers, rendered by the error handler. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly fieldErrors: FieldError[];
  readonly headers: Record<string, string>;
  constructor(statusCode: number, message: string, fieldErrors: FieldError[] = [], headers = {}) {
    super(message);
    this.statusCode = statusCode;
    this.fieldErrors = fieldErrors;
    this.headers = headers;
  }
}

export const notFound = () => new HttpError(404, 'Not Found');
export const forbidden = () => new HttpError(403, 'Forbidden');
export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const invalidFields = (fieldErrors: FieldError[]) => new HttpError(400, 'Invalid input', fieldErrors);

export function errorBody(statusCode: number, message: string, fieldErrors: FieldError[] = []): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, fieldErrors };
}
