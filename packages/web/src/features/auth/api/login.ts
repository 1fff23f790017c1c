import { useMutation } from '@tanstack/react-query';
import type { CurrentUser, LoginBody } from '@tankportal/shared/schemas/auth';
import { api, ApiError, ensureCsrfToken } from '../../../lib/api-client.ts';
import { lastUsername } from '../../../lib/cookies.ts';
import { useResetSession } from '../../../lib/session.ts';

export type LoginFailure = 'invalidCredentials' | 'serverError' | 'unknownError';

/** portal-area §8: 400 is invalid credentials, any other answer a server error, none unknown. */
export function loginFailure(error: unknown): LoginFailure {
  if (error instanceof ApiError && error.status === 400) return 'invalidCredentials';
  if (error instanceof ApiError && error.status > 0) return 'serverError';
  return 'unknownError';
}

export function useLogin() {
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: async (credentials: LoginBody) => {
      await ensureCsrfToken();
      return api<CurrentUser>('POST', '/v2/login', { body: credentials, allowUnauthorized: true });
    },
    // The login page shows its own texts (loginFailure).
    meta: { errorToast: false },
    onSuccess: (user, credentials) => {
      lastUsername.set(credentials.username);
      resetSession(user);
    },
  });
}
