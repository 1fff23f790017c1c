/**
 * Seeded pseudo-random numbers for simulations (the demo fleet, the benchmarks, the forecast's
 * synthetic series): the same seed gives the same numbers on every machine.
 */

/** mulberry32: a tiny, fast generator with a 32-bit state. Values in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal variate (Box–Muller) from a uniform source. */
export function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
