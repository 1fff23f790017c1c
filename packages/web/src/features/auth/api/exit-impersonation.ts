import { useMutation } from '@tanstack/react-query';
import type { CurrentUser } from '@tankportal/shared/schemas/auth';
import { api } from '../../../lib/api-client.ts';
import { impersonationReturnPath } from '../../../lib/impersonation-return.ts';

/**
 * Ends acting as another user; the page reloads with the own identity on the impersonated user's
 * page it was started from.
 */
export function useExitImpersonation(impersonatedUserId: number) {
  return useMutation({
    mutationFn: () => api<CurrentUser>('GET', '/v2/users/me', { query: { _impersonate_user: '_exit' } }),
    // A failure leaves the banner and its button as they were, untold.
    meta: { errorToast: false },
    onSuccess: () => window.location.assign(impersonationReturnPath(impersonatedUserId)),
  });
}
