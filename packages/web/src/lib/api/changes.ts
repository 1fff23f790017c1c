import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import { fetchPage, type Page } from './paged.ts';

/** Entries on one page of a changes tab (a device's, a user's). */
export const CHANGES_PAGE_SIZE = 25;

/**
 * One page of a changes tab's entries, newest first, with the count of them all (x-total-count):
 * `GET /v2/devices/{id}/changes` or `GET /v2/users/{id}/changes`.
 */
export function fetchChangesPage(path: string, page: number, signal: AbortSignal): Promise<Page<AuditEntry>> {
  return fetchPage<AuditEntry>(path, { page, size: CHANGES_PAGE_SIZE }, signal);
}
