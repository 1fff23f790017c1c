import { get, set, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import type { TFunction } from 'i18next';
import type { FieldError } from '@tankportal/shared/field-errors';
import { toFieldError, type IssueLike } from '@tankportal/shared/field-errors';
import { ApiError } from './api-client.ts';

/**
 * The text of a field error: some fields have their own words for a
 * code (a taken username, an e-mail address in the wrong format), the rest share one per code.
 */
export function fieldErrorText(t: TFunction, error: Pick<FieldError, 'path' | 'code' | 'args'>): string {
  const field = error.path.split('.').pop();
  // Rules that answer `invalid` say why (an integer, letters and digits only, a 5-minute step):
  // their own words where we have them, else the generic text.
  const { reason, step } = error.args ?? {};
  const why =
    typeof reason === 'string' ? [`validation.reasons.${reason}`] : step ? ['validation.reasons.step'] : [];
  return t([`validation.byField.${field}.${error.code}`, ...why, `validation.${error.code}`], error.args);
}

/** Server field errors (path, code, args) onto the form's fields; true when any was mapped. */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  t: TFunction,
): boolean {
  if (!(error instanceof ApiError) || !error.body?.fieldErrors?.length) return false;
  for (const fieldError of error.body.fieldErrors) {
    setError(fieldError.path as Path<T>, { type: fieldError.code, message: fieldErrorText(t, fieldError) });
  }
  return true;
}

/**
 * A react-hook-form resolver from a shared zod schema, with the same texts as the server's field
 * errors (the client checks what the server enforces, in the same words).
 */
export function sharedSchemaResolver<T extends FieldValues>(
  schema: {
    safeParse(
      data: unknown,
    ): { success: true; data: unknown } | { success: false; error: { issues: IssueLike[] } };
  },
  t: TFunction,
) {
  return async (values: T) => {
    const result = schema.safeParse(values);
    if (result.success) return { values: result.data as T, errors: {} };
    // Nested by path, as react-hook-form keeps them (`errors.address.postalCode`): a flat
    // 'address.postalCode' key is found by useController but not by `errors.address?.postalCode`.
    const errors: Record<string, unknown> = {};
    for (const issue of result.error.issues) {
      const fieldError = toFieldError(issue);
      const found = get(errors, fieldError.path) as { message?: string } | undefined;
      if (found?.message) continue;
      const own = { type: fieldError.code, message: fieldErrorText(t, fieldError) };
      // An error of the whole object (the interval) keeps the ones of its parts already found.
      set(errors, fieldError.path, { ...found, ...own });
    }
    return { values: {}, errors };
  };
}
