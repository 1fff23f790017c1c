import type { FieldError } from '@tankportal/shared/field-errors';
import { ApiError } from '../../../lib/api-client.ts';

/** The server's field errors on a list of device ids: the devices it refused, and the rest. */
export interface DeviceIdErrors {
  /** Devices that cannot be taken ({deviceIds, N} forbidden or not_queryable), ascending. */
  refused: number[];
  /** Errors of the list itself (`deviceIds`: required, too many) and of the other fields. */
  others: Pick<FieldError, 'path' | 'code' | 'args'>[];
}

/**
 * Reads the field errors of a failed save that sent `deviceIds`: a path `deviceIds.3` (or the
 * array form `['deviceIds', 3]`) names the fourth id sent. Null when the failure has none.
 */
export function deviceIdErrors(error: unknown, sentIds: readonly number[]): DeviceIdErrors | null {
  if (!(error instanceof ApiError) || !error.body?.fieldErrors?.length) return null;
  const refused = new Set<number>();
  const others: DeviceIdErrors['others'] = [];
  for (const fieldError of error.body.fieldErrors) {
    const raw: unknown = fieldError.path;
    const parts = Array.isArray(raw) ? raw.map(String) : String(raw).split('.');
    const index = parts[0] === 'deviceIds' && parts.length > 1 ? Number(parts[1]) : NaN;
    if (Number.isInteger(index) && sentIds[index] !== undefined) refused.add(sentIds[index]);
    else others.push({ ...fieldError, path: parts.join('.') });
  }
  return { refused: [...refused].sort((a, b) => a - b), others };
}
