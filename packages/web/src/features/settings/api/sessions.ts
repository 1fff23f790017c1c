import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndedSessions, OwnSession } from '@tankportal/shared/schemas/sessions';
import { api } from '../../../lib/api-client.ts';
import { useResetSession } from '../../../lib/session.ts';

export type { OwnSession };

const SESSIONS_KEY = ['sessions', 'own'] as const;

/** GET /v2/sessions: the signed-in user's live sessions, last used first. */
export function useOwnSessions() {
  return useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: ({ signal }) => api<OwnSession[]>('GET', '/v2/sessions', { signal }),
  });
}

/**
 * DELETE /v2/sessions/{id}. Ending this browser's own session signs out: the login page then says
 * so, as after "Log out". Either way the list is read again (a session ended elsewhere is gone).
 */
export function useEndSession() {
  const queryClient = useQueryClient();
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: (session: OwnSession) => api<void>('DELETE', `/v2/sessions/${session.id}`),
    onSuccess: (_answer, session) => {
      if (session.current) resetSession(null, 'loggedOut');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** DELETE /v2/sessions/others: every session but this one ends. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<EndedSessions>('DELETE', '/v2/sessions/others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
