import type { Locale } from '@tankportal/shared/constants';
import { healthLabel } from '@tankportal/shared/health-texts';
import { HEALTH_KINDS, type HealthIssue, type HealthKind } from '@tankportal/shared/schemas/tank-health';

type IssueLike = Pick<HealthIssue, 'kind' | 'sequence'>;

/** The list's health filter (`health=` of `GET /v2/devices`): any doubt, or one kind of it. */
export const HEALTH_FILTERS = ['any', ...HEALTH_KINDS] as const;
export type HealthFilter = (typeof HEALTH_FILTERS)[number];

/** The list's "empty within" choices in days (`empty_within_days=`), beside "off". */
export const EMPTY_WITHIN_DAYS = [7, 14, 30] as const;

export const isHealthFilter = (value: unknown): value is HealthFilter =>
  typeof value === 'string' && (HEALTH_FILTERS as readonly string[]).includes(value);

export const isEmptyWithinDays = (value: unknown): value is number =>
  typeof value === 'number' && (EMPTY_WITHIN_DAYS as readonly number[]).includes(value);

/** The sensors (by number) a doubt is about; silent and low battery concern the whole device. */
export function doubtfulSequences(issues: readonly IssueLike[]): Set<number> {
  return new Set(issues.flatMap((issue) => (issue.sequence === null ? [] : [issue.sequence])));
}

/** The doubts about one sensor, in the order they came. */
export const issuesOfSensor = <T extends IssueLike>(issues: readonly T[], sequence: number): T[] =>
  issues.filter((issue) => issue.sequence === sequence);

/** Each kind of doubt once, in its label, in the order of HEALTH_KINDS (the list's tooltip). */
export function healthLabels(issues: readonly Pick<HealthIssue, 'kind'>[], locale: Locale): string[] {
  const kinds = new Set<HealthKind>(issues.map((issue) => issue.kind));
  return HEALTH_KINDS.filter((kind) => kinds.has(kind)).map((kind) => healthLabel(kind, locale));
}
