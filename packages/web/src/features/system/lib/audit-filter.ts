import {
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  type AuditAction,
  type AuditEntity,
} from '@tankportal/shared/schemas/audit';
import { dayEnd, dayErrors, dayStart } from '../../../lib/day-range.ts';
import { pathId } from '../../../lib/path-id.ts';

// The filters of the masters' page of the record of changes live in the page's address, so that a
// reload, a bookmark or a link sent to another master shows the same entries.

/** What the page filters by: who, which kind of object, which action, which device, which days. */
export interface AuditFilter {
  userId?: number;
  entityType?: AuditEntity;
  action?: AuditAction;
  deviceId?: number;
  /** Days as the date fields give them (yyyy-MM-dd), '' for no bound. */
  from: string;
  to: string;
  page: number;
}

/** The address's names of the filters: the API's names of the same filters. */
const PARAMS = {
  userId: 'user_id',
  entityType: 'entity_type',
  action: 'action',
  deviceId: 'device_id',
  from: 'from',
  to: 'to',
  page: 'page',
} as const;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((each) => each === value);

const idOf = (value: string | null) => pathId(value ?? undefined) ?? undefined;

/**
 * The filter an address holds; what is not a filter's value (an unknown action, a day that is
 * none, a future day, an end before the start, page 0) is left out rather than refused.
 */
export function auditFilterFromSearch(search: URLSearchParams): AuditFilter {
  const days = { from: search.get(PARAMS.from) ?? '', to: search.get(PARAMS.to) ?? '' };
  const wrong = dayErrors(days);
  return {
    userId: idOf(search.get(PARAMS.userId)),
    entityType: oneOf(AUDIT_ENTITIES, search.get(PARAMS.entityType)),
    action: oneOf(AUDIT_ACTIONS, search.get(PARAMS.action)),
    deviceId: idOf(search.get(PARAMS.deviceId)),
    from: wrong.from ? '' : days.from,
    to: wrong.to ? '' : days.to,
    page: idOf(search.get(PARAMS.page)) ?? 1,
  };
}

/** The filter as the address's query: only the filters set, the first page not named. */
export function auditFilterSearch(filter: AuditFilter): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of Object.keys(PARAMS) as (keyof AuditFilter)[]) {
    const value = filter[key];
    if (value === undefined || value === '' || (key === 'page' && value === 1)) continue;
    search.set(PARAMS[key], String(value));
  }
  return search;
}

/**
 * The filter as `GET /v2/audit-entries` and its export take it (camelCase: the API client writes
 * snake_case): the days from the start of the first to the end of the last, in the browser's zone.
 */
export function auditEntriesQuery({ from, to, page: _page, ...rest }: AuditFilter) {
  return { ...rest, from: from ? dayStart(from) : undefined, to: to ? dayEnd(to) : undefined };
}
