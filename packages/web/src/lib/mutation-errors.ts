import type { TFunction } from 'i18next';
import { ApiError } from './api-client.ts';
import { errorText } from './error-texts.ts';

/**
 * How a mutation's failure is told (the `meta` of `useMutation`). By default every failed
 * mutation shows one error toast (notifyMutationError, the QueryClient's MutationCache); a
 * mutation opts out here.
 */
export interface MutationMeta extends Record<string, unknown> {
  /**
   * false: the caller tells the failure itself, or nobody does (the failure stays silent).
   * 'unlessFieldErrors': a form maps the server's field errors onto its fields (field-errors.ts);
   * only a failure without field errors shows the toast.
   */
  errorToast?: false | 'unlessFieldErrors';
  /** The i18n key of the toast whatever the server said (a failure with its own words). */
  errorText?: string;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: MutationMeta;
  }
}

/**
 * The toast of a failed mutation, or null for none: the text of its kind (error-texts.ts: server
 * error, refusal, no connection ...) in the user's language, never the server's English message
 * (decision 031).
 */
export function mutationErrorText(
  error: unknown,
  meta: MutationMeta | undefined,
  t: TFunction,
): string | null {
  if (meta?.errorToast === false) return null;
  const apiError = error instanceof ApiError ? error : undefined;
  if (meta?.errorToast === 'unlessFieldErrors' && apiError?.body?.fieldErrors?.length) return null;
  if (meta?.errorText) return t(meta.errorText);
  return errorText(error, t);
}

let showError: (message: string) => void = () => {};

/**
 * The signed-in app registers how an error toast is shown (its snackbars); before that (the login
 * page, whose mutations tell their failures themselves) nothing is shown.
 */
export function setMutationErrorNotifier(notify: (message: string) => void): () => void {
  showError = notify;
  return () => {
    showError = () => {};
  };
}

/** The MutationCache's onError: the one place a failed mutation becomes an error toast. */
export function notifyMutationError(error: unknown, meta: MutationMeta | undefined, t: TFunction) {
  const text = mutationErrorText(error, meta, t);
  if (text) showError(text);
}
