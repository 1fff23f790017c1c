import { useState } from 'react';
import { CountedChanges } from '../../../components/changes/counted-changes.tsx';
import { useUserChanges } from '../api/changes.ts';

/**
 * /users/{id}/changes (whoever may open the user as admin): what was changed about the user and
 * what the user changed (its devices, their access entries, contacts …), newest first, a page at a
 * time; the changed object in a column of its own, a device linking to its pages.
 */
export function UserChangesPage({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  return (
    <CountedChanges changes={useUserChanges(userId, page)} page={page} onPageChange={setPage} objectColumn />
  );
}
