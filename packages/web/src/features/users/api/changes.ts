import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchChangesPage } from '../../../lib/api/changes.ts';
import { userKeys } from '../../../lib/api/users.ts';

/**
 * GET /v2/users/{id}/changes (admins over the user): one page of what was changed about the user
 * and what the user changed, newest first, with the count of them all. The page shown stays while
 * the next one loads.
 */
export function useUserChanges(userId: number, page: number) {
  return useQuery({
    queryKey: userKeys.changes(userId, page),
    queryFn: ({ signal }) => fetchChangesPage(`/v2/users/${userId}/changes`, page, signal),
    placeholderData: keepPreviousData,
  });
}
