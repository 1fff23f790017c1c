/**
 * Whether a truck holds a tour's load: its compartments each carry one content for the whole tour,
 * either the one they are built for or, when they take any content, one chosen for this tour. A
 * content's quantity may be spread over several of its compartments (a delivery is pumped through
 * the meter from each in turn), but never two contents share a compartment.
 */
export interface Compartment {
  /** The content the compartment is built for; null: any content, one per tour. */
  contentType: string | null;
  /** Litres (or the unit the quantities are in). */
  capacity: number;
}

/** Rounding in quantities computed by sums: a thousandth of a litre is no overload. */
const EPSILON = 1e-3;
/** Compartments taking any content: the exact check enumerates their subsets. */
export const MAX_FREE_COMPARTMENTS = 16;

/**
 * One truck's capacity for the contents of one problem (contents numbered 0..k-1), answering
 * `fits(load)` for a load per content.
 */
export class TruckCapacity {
  /** Capacity of the compartments built for each content. */
  private readonly fixed: Float64Array;
  /** Sums of each subset of the compartments taking any content (bit i: compartment i). */
  private readonly freeSums: Float64Array;
  private readonly freeCount: number;
  private readonly freeTotal: number;
  private readonly residuals: Float64Array;
  readonly total: number;

  constructor(compartments: readonly Compartment[], contentIndex: ReadonlyMap<string, number>) {
    this.fixed = new Float64Array(contentIndex.size);
    const free: number[] = [];
    let total = 0;
    for (const compartment of compartments) {
      if (!(compartment.capacity > 0)) continue;
      if (compartment.contentType === null) {
        free.push(compartment.capacity);
        total += compartment.capacity;
        continue;
      }
      const content = contentIndex.get(compartment.contentType);
      // A compartment for a content no stop asks for carries nothing on this tour.
      if (content === undefined) continue;
      this.fixed[content] += compartment.capacity;
      total += compartment.capacity;
    }
    if (free.length > MAX_FREE_COMPARTMENTS)
      throw new Error(`a truck has more than ${MAX_FREE_COMPARTMENTS} compartments for any content`);
    free.sort((a, b) => b - a);
    this.freeCount = free.length;
    this.freeSums = new Float64Array(1 << free.length);
    for (let mask = 1; mask < this.freeSums.length; mask++) {
      const lowest = 31 - Math.clz32(mask & -mask);
      this.freeSums[mask] = this.freeSums[mask & (mask - 1)] + free[lowest];
    }
    this.freeTotal = this.freeSums[this.freeSums.length - 1];
    this.residuals = new Float64Array(contentIndex.size);
    this.total = total;
  }

  /** Whether the load (quantity per content) fits the truck's compartments. */
  fits(load: ArrayLike<number>): boolean {
    let count = 0;
    let sum = 0;
    for (let content = 0; content < this.fixed.length; content++) {
      const residual = load[content] - this.fixed[content];
      if (residual > EPSILON) {
        this.residuals[count++] = residual;
        sum += residual;
      }
    }
    if (count === 0) return true;
    if (sum > this.freeTotal + EPSILON) return false;
    if (count === 1) return true;
    // Several contents need compartments of the free kind: each needs whole compartments of its own.
    const residuals = Array.from(this.residuals.subarray(0, count)).sort((a, b) => b - a);
    return this.assign(residuals, 0, (1 << this.freeCount) - 1, sum);
  }

  /** Whether residuals[i..] can each get a disjoint set of the free compartments in `free`. */
  private assign(residuals: number[], i: number, free: number, rest: number): boolean {
    if (i === residuals.length) return true;
    if (rest > this.freeSums[free] + EPSILON) return false;
    const need = residuals[i];
    for (let subset = free; subset > 0; subset = (subset - 1) & free) {
      if (
        this.freeSums[subset] + EPSILON >= need &&
        this.assign(residuals, i + 1, free & ~subset, rest - need)
      )
        return true;
    }
    return false;
  }
}
