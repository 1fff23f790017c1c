import { hashKey, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@tankportal/shared/schemas/auth';
import { hasRole, type Role } from '@tankportal/shared/roles';
import { api } from './api-client.ts';
import { userKeys } from './api/users.ts';

export const CURRENT_USER_KEY = userKeys.me();
/** A one-time notice for the login page ("you have been logged out"), kept beside the user. */
const SESSION_NOTICE_KEY = ['session', 'notice'] as const;
/** Queries that do not depend on who is signed in survive a change of identity. */
const PUBLIC_QUERY_ROOTS = new Set<unknown>(['whitelabels', 'session']);

export type SessionNotice = 'loggedOut';

/** The signed-in user, or null: a failed start-up load means "not signed in". */
export const currentUserQuery = queryOptions({
  queryKey: CURRENT_USER_KEY,
  queryFn: ({ signal }) =>
    api<CurrentUser>('GET', '/v2/users/me', { allowUnauthorized: true, signal }).catch(() => null),
  staleTime: Infinity,
  retry: false,
});

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

export function useHasRole(minimum: Role): boolean {
  const { data: user } = useCurrentUser();
  return !!user && hasRole(user.role, minimum);
}

export function useSessionNotice(): SessionNotice | null {
  return (
    useQuery({
      queryKey: SESSION_NOTICE_KEY,
      queryFn: () => null as SessionNotice | null,
      staleTime: Infinity,
      enabled: false,
    }).data ?? null
  );
}

/**
 * Starts over with a new identity (after login, logout or a 401): everything cached for the old
 * one goes, the user query holds the new one, and the guards route accordingly.
 */
export function resetSession(queryClient: QueryClient, user: CurrentUser | null, notice?: SessionNotice) {
  // The user and notice queries stay (their observers keep listening); only their data changes.
  queryClient.removeQueries({
    predicate: ({ queryKey, queryHash }) =>
      !PUBLIC_QUERY_ROOTS.has(queryKey[0]) && queryHash !== hashKey(CURRENT_USER_KEY),
  });
  queryClient.setQueryData(SESSION_NOTICE_KEY, notice ?? null);
  queryClient.setQueryData(CURRENT_USER_KEY, user);
}

export function useResetSession() {
  const queryClient = useQueryClient();
  return (user: CurrentUser | null, notice?: SessionNotice) => resetSession(queryClient, user, notice);
}
