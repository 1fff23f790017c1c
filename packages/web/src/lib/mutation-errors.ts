import type { TFunction } from 'i18next';
import { ApiError } from './api-client.ts';

/**
 * How a mutation's failure is told (the `meta` of `useMutation`). By default every failed
 * mutation shows one error toast (notifyMutationError, the QueryClient's MutationCache); a
 * mutation opts out here.
 */
export interface MutationMeta extends Record<string, unknown> {
  /**
   * false: the caller tells the failure itself, or nobody does (the spec keeps it silent).
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
 * The toast of a failed mutation, or null for none: the server's message, else the words of
 * portal-area §8 (a response without a message: "Server error. Please try again later"; no
 * response at all: "Unknown error. Please try again").
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
  return apiError?.body?.message || t(apiError?.status ? 'common.errors.server' : 'common.errors.unknown');
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
