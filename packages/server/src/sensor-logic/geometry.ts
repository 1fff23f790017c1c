/**
 * Filled share of a tank's volume at a relative fill height, per tank geometry 1..9.
 *
 * Each geometry is described by its horizontal cross-section area a(y) at relative height
 * y in [0, 1] (any scale); the filled share at height x is ∫₀ˣ a / ∫₀¹ a. The integral is tabulated
 * once per geometry (Simpson, 1,000 steps) and read with linear interpolation.
 *
 * | id | tank | a(y) |
 * |---|---|---|
 * | 1 | vertical cylinder | 1 |
 * | 2 | horizontal cylinder | √(y(1−y)) (chord length of a circle) |
 * | 3 | rectangular (cuboid) | 1 |
 * | 4 | sphere | y(1−y) (disc area) |
 * | 5 | horizontal cylinder with dished ends | as 2; the dished ends add volume in the same proportion |
 * | 6 | battery tank (plastic) | rectangle whose corners are rounded with radius 0.2 of the height |
 * | 7 | cellar tank (steel) | rectangle whose corners are rounded with radius 0.1 of the height |
 * | 8 | silo with cone | (y/0.3)² below 30 % of the height (the cone), 1 above |
 * | 9 | horizontal oval tank | straight sides with half-round top and bottom, each 0.35 of the height |
 */
export type GeometryId = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** Width of a rectangle of height 1 whose corners are rounded with radius r, at height y. */
function roundedWidth(y: number, r: number): number {
  const d = Math.min(y, 1 - y);
  if (d >= r) return 1;
  return 1 - 2 * (r - Math.sqrt(Math.max(0, r * r - (r - d) * (r - d))));
}

const AREA: Record<GeometryId, (y: number) => number> = {
  1: () => 1,
  2: (y) => Math.sqrt(Math.max(0, y * (1 - y))),
  3: () => 1,
  4: (y) => y * (1 - y),
  5: (y) => Math.sqrt(Math.max(0, y * (1 - y))),
  6: (y) => roundedWidth(y, 0.2),
  7: (y) => roundedWidth(y, 0.1),
  8: (y) => (y < 0.3 ? (y / 0.3) ** 2 : 1),
  9: (y) => roundedWidth(y, 0.35),
};

const STEPS = 1000;
const tables = new Map<GeometryId, Float64Array>();

function table(geometry: GeometryId): Float64Array {
  let cumulative = tables.get(geometry);
  if (cumulative) return cumulative;
  const area = AREA[geometry];
  cumulative = new Float64Array(STEPS + 1);
  const h = 1 / STEPS;
  for (let i = 1; i <= STEPS; i++) {
    const a = (i - 1) * h;
    // Simpson's rule on each step.
    cumulative[i] = cumulative[i - 1] + (h / 6) * (area(a) + 4 * area(a + h / 2) + area(a + h));
  }
  const total = cumulative[STEPS];
  for (let i = 0; i <= STEPS; i++) cumulative[i] /= total;
  tables.set(geometry, cumulative);
  return cumulative;
}

/** Filled share (0..1) of the volume at relative fill height `x` (clamped to 0..1). */
export function filledShare(geometry: GeometryId, x: number): number {
  const clamped = Math.min(1, Math.max(0, x));
  const cumulative = table(geometry);
  const position = clamped * STEPS;
  const i = Math.floor(position);
  if (i >= STEPS) return 1;
  return cumulative[i] + (cumulative[i + 1] - cumulative[i]) * (position - i);
}

export function isGeometry(value: number | null | undefined): value is GeometryId {
  return value !== null && value !== undefined && Number.isInteger(value) && value >= 1 && value <= 9;
}
