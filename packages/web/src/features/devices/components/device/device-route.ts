export interface QuickNavigationTargets {
  first: number | null;
  previous: number | null;
  next: number | null;
  last: number | null;
}

/**
 * Where first / previous / next / last lead from `current` in the list's ids;
 * null where the button has nowhere to go. A device outside the list has no neighbours.
 */
export function quickNavigationTargets(ids: readonly number[], current: number): QuickNavigationTargets {
  const index = ids.indexOf(current);
  const first = ids.length && ids[0] !== current ? ids[0] : null;
  const last = ids.length && ids[ids.length - 1] !== current ? ids[ids.length - 1] : null;
  return {
    first,
    previous: index > 0 ? ids[index - 1] : null,
    next: index >= 0 && index < ids.length - 1 ? ids[index + 1] : null,
    last,
  };
}

/** The id field takes digits only, at most 5. */
export const DEVICE_ID_FIELD_MAX_LENGTH = 5;

export function deviceIdFieldValue(input: string): string {
  return input.replace(/\D/g, '').slice(0, DEVICE_ID_FIELD_MAX_LENGTH);
}
