import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useResetSession } from '../../../lib/session.ts';

/** Ends the session server-side, then the login page shows the logged-out message. */
export function useLogout() {
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: () => api<void>('POST', '/v2/logout', { allowUnauthorized: true }),
    // Signed out either way: a failure is not told.
    meta: { errorToast: false },
    // Without a user the route guards send the browser to /login, where the notice shows.
    onSettled: () => resetSession(null, 'loggedOut'),
  });
}
