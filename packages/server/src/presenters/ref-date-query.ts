import type { RefDateQuery } from '@tankportal/shared/schemas/ref-date-queries';
import type { RefDateQueryWithMembers } from '../repositories/ref-date-queries.ts';

/** A reference-date query with its timetable, its user's name and its member devices. */
export function presentRefDateQuery({ query, username, deviceIds }: RefDateQueryWithMembers): RefDateQuery {
  return {
    id: query.id,
    userId: query.userId,
    username,
    intervalType: query.intervalType,
    intervals: query.intervals,
    queryAt: query.queryAt,
    olderThan: query.olderThan,
    isActive: query.isActive,
    lastRunAt: query.lastRunAt,
    nextRunAt: query.nextRunAt,
    deviceIds,
  };
}
