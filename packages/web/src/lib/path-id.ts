/** Largest id the API's 32-bit keys hold. */
const MAX_ID = 2_147_483_647;

/**
 * The id in a route segment (`/devices/5`, `/contacts/7`), or null when the segment is none: a
 * positive integer without leading zeros that fits the API's keys.
 */
export function pathId(segment: string | undefined): number | null {
  if (!segment || !/^[1-9]\d{0,9}$/.test(segment)) return null;
  const id = Number(segment);
  return id <= MAX_ID ? id : null;
}
