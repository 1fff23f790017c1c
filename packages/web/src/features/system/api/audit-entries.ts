import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Locale } from '@tankportal/shared/constants';
import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import { MESSAGE_HEADERS } from '@tankportal/shared/schemas/messages';
import { apiDownload, apiResponse } from '../../../lib/api-client.ts';
import { auditEntriesQuery, type AuditFilter } from '../lib/audit-filter.ts';

/** Entries on one page of the masters' record of changes. */
export const AUDIT_PAGE_SIZE = 50;

export interface AuditEntriesPage {
  items: AuditEntry[];
  /** Whether a next page follows: the record is not counted (millions of entries). */
  hasMore: boolean;
}

/**
 * GET /v2/audit-entries (master): one page of the whole record, newest first, filtered. The page
 * shown stays while the next one loads.
 */
export function useAuditEntries(filter: AuditFilter) {
  const query = { ...auditEntriesQuery(filter), page: filter.page, size: AUDIT_PAGE_SIZE };
  return useQuery({
    queryKey: ['audit-entries', query],
    queryFn: async ({ signal }): Promise<AuditEntriesPage> => {
      const { data, headers } = await apiResponse<AuditEntry[]>('GET', '/v2/audit-entries', {
        query,
        signal,
      });
      return { items: data, hasMore: headers.get(MESSAGE_HEADERS.hasMore) === '1' };
    },
    placeholderData: keepPreviousData,
  });
}

/** The filtered record as an xlsx file, its words in `locale`; a refusal arrives as an ApiError. */
export function downloadAuditEntries(filter: AuditFilter, locale: Locale): Promise<void> {
  return apiDownload('/v2/audit-entries/export', {
    ...auditEntriesQuery(filter),
    fileFormat: 'xlsx',
    locale,
  });
}
