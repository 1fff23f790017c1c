import { mulberry32 } from '@tankportal/shared/random';
import { describe, expect, it } from 'vitest';
import { greatCircleMatrix, greatCircleMetres, matrixFromRows, type DistanceMatrix } from './distances.ts';
import { planToursInWorker } from './plan-in-worker.ts';
import { planTours, type PlannerStop, type PlannerTruck } from './planner.ts';
import { TruckCapacity, type Compartment } from './truck-load.ts';

interface Stop extends PlannerStop {
  id: number;
  lat: number;
  lng: number;
}
interface Truck extends PlannerTruck {
  id: string;
}

const DEPOT = { lat: 51.3127, lng: 9.4797 };
const CONTENTS = ['heating_oil', 'diesel'];

function randomStops(seed: number, count: number, contents = CONTENTS, spreadKm = 30): Stop[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, id) => ({
    id,
    lat: DEPOT.lat + ((random() - 0.5) * 2 * spreadKm) / 111,
    lng: DEPOT.lng + ((random() - 0.5) * 2 * spreadKm) / 70,
    quantity: 500 + Math.round(random() * 25) * 100,
    contentType: contents[Math.floor(random() * contents.length)],
  }));
}

const matrixOf = (stops: Stop[]): DistanceMatrix => greatCircleMatrix([DEPOT, ...stops]);

/** Independent of TruckCapacity: every way of giving each free compartment one content. */
function fitsByEnumeration(compartments: readonly Compartment[], load: Record<string, number>): boolean {
  const contents = Object.keys(load);
  const free = compartments.filter((compartment) => compartment.contentType === null);
  const fixed = (content: string) =>
    compartments
      .filter((compartment) => compartment.contentType === content)
      .reduce((sum, compartment) => sum + compartment.capacity, 0);
  const choices = contents.length + 1; // or left empty
  for (let code = 0; code < choices ** free.length; code++) {
    const held = new Map(contents.map((content) => [content, fixed(content)]));
    let rest = code;
    for (const compartment of free) {
      const choice = rest % choices;
      rest = Math.floor(rest / choices);
      if (choice < contents.length)
        held.set(contents[choice], held.get(contents[choice])! + compartment.capacity);
    }
    if (contents.every((content) => load[content] <= held.get(content)! + 1e-6)) return true;
  }
  return false;
}

/** The optimum by enumeration: every assignment of stops to trucks, each truck's tour by Held–Karp. */
function bruteForce(stops: Stop[], trucks: Truck[], matrix: DistanceMatrix): number | null {
  const n = stops.length;
  const d = (a: number, b: number) => matrix.values[a * matrix.size + b];
  // best[mask][last]: shortest path from the depot over the stops in mask ending at last.
  const full = 1 << n;
  const best = Array.from({ length: full }, () => new Float64Array(n).fill(Infinity));
  for (let i = 0; i < n; i++) best[1 << i][i] = d(0, i + 1);
  for (let mask = 1; mask < full; mask++) {
    for (let last = 0; last < n; last++) {
      const here = best[mask][last];
      if (!(mask & (1 << last)) || here === Infinity) continue;
      for (let next = 0; next < n; next++) {
        if (mask & (1 << next)) continue;
        const value = here + d(last + 1, next + 1);
        if (value < best[mask | (1 << next)][next]) best[mask | (1 << next)][next] = value;
      }
    }
  }
  const tour = new Float64Array(full);
  for (let mask = 1; mask < full; mask++) {
    let value = Infinity;
    for (let last = 0; last < n; last++)
      if (mask & (1 << last)) value = Math.min(value, best[mask][last] + d(last + 1, 0));
    tour[mask] = value;
  }
  const loadOf = (mask: number) => {
    const load: Record<string, number> = {};
    stops.forEach((stop, i) => {
      if (mask & (1 << i)) load[stop.contentType] = (load[stop.contentType] ?? 0) + stop.quantity;
    });
    return load;
  };
  const fits = trucks.map((truck) => {
    const answers = new Uint8Array(full);
    for (let mask = 0; mask < full; mask++)
      answers[mask] = fitsByEnumeration(truck.compartments, loadOf(mask)) ? 1 : 0;
    return answers;
  });
  let optimum = Infinity;
  const masks = new Array<number>(trucks.length).fill(0);
  const assign = (i: number) => {
    if (i === n) {
      if (masks.every((mask, truck) => fits[truck][mask])) {
        const total = masks.reduce((sum, mask) => sum + tour[mask], 0);
        optimum = Math.min(optimum, total);
      }
      return;
    }
    for (let truck = 0; truck < trucks.length; truck++) {
      masks[truck] |= 1 << i;
      assign(i + 1);
      masks[truck] &= ~(1 << i);
    }
  };
  assign(0);
  return optimum === Infinity ? null : optimum;
}

describe('truck capacity', () => {
  const index = new Map(CONTENTS.map((content, i) => [content, i]));

  it('spreads a content over several of its compartments, never two contents in one', () => {
    const capacity = new TruckCapacity(
      [
        { contentType: null, capacity: 3000 },
        { contentType: null, capacity: 3000 },
      ],
      index,
    );
    expect(capacity.fits([6000, 0])).toBe(true);
    expect(capacity.fits([3000, 3000])).toBe(true);
    // 4,500 litres in all fit the 6,000, but 3,500 of one content need both compartments.
    expect(capacity.fits([3500, 1000])).toBe(false);
    expect(capacity.fits([6001, 0])).toBe(false);
  });

  it('keeps a compartment built for a content to that content', () => {
    const capacity = new TruckCapacity(
      [
        { contentType: 'heating_oil', capacity: 5000 },
        { contentType: null, capacity: 2000 },
      ],
      index,
    );
    expect(capacity.fits([7000, 0])).toBe(true);
    expect(capacity.fits([5000, 2000])).toBe(true);
    expect(capacity.fits([4000, 2500])).toBe(false);
    expect(capacity.total).toBe(7000);
  });

  it('agrees with enumerating every assignment', () => {
    const random = mulberry32(7);
    for (let round = 0; round < 300; round++) {
      const compartments: Compartment[] = Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({
        contentType: random() < 0.5 ? null : CONTENTS[Math.floor(random() * 2)],
        capacity: 1000 * (1 + Math.floor(random() * 5)),
      }));
      const load = [Math.round(random() * 8) * 1000, Math.round(random() * 8) * 1000];
      const expected = fitsByEnumeration(compartments, { heating_oil: load[0], diesel: load[1] });
      expect(new TruckCapacity(compartments, index).fits(load), JSON.stringify({ compartments, load })).toBe(
        expected,
      );
    }
  });
});

describe('the tour planner', () => {
  it('finds the optimum or comes within 2 % of it on small instances', () => {
    const gaps: number[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const random = mulberry32(1000 + seed);
      const stops = randomStops(seed, 5 + (seed % 4));
      const total = stops.reduce((sum, stop) => sum + stop.quantity, 0);
      // Tight: the two trucks hold about 1.25 times the day's quantity, one with a diesel compartment.
      const big = Math.ceil((total * 0.7) / 500) * 500;
      const small = Math.ceil((total * 0.55) / 500) * 500;
      const trucks: Truck[] = [
        {
          id: 'a',
          compartments: [
            { contentType: null, capacity: big / 2 },
            { contentType: null, capacity: big / 2 },
          ],
        },
        {
          id: 'b',
          compartments:
            random() < 0.5
              ? [{ contentType: null, capacity: small }]
              : [
                  { contentType: 'diesel', capacity: small / 2 },
                  { contentType: null, capacity: small / 2 },
                ],
        },
      ];
      const matrix = matrixOf(stops);
      const optimum = bruteForce(stops, trucks, matrix);
      if (optimum === null) continue;
      const plan = planTours({ stops, trucks, distances: matrix });
      expect(plan.unplanned, `seed ${seed}`).toEqual([]);
      gaps.push(plan.distance / optimum - 1);
      expect(plan.distance, `seed ${seed}`).toBeLessThanOrEqual(optimum * 1.02 + 1e-6);
    }
    expect(gaps.length).toBeGreaterThanOrEqual(30);
  });

  it('finds the optimum on small days with three trucks of different kinds', () => {
    let compared = 0;
    for (let seed = 101; seed <= 130; seed++) {
      const stops = randomStops(seed, 6 + (seed % 3), ['heating_oil', 'diesel', 'adblue']);
      const total = stops.reduce((sum, stop) => sum + stop.quantity, 0);
      const share = (part: number) => Math.ceil((total * part) / 500) * 500;
      const trucks: Truck[] = [
        { id: 'oil', compartments: [{ contentType: 'heating_oil', capacity: share(0.5) }] },
        {
          id: 'mixed',
          compartments: [
            { contentType: null, capacity: share(0.2) },
            { contentType: null, capacity: share(0.2) },
          ],
        },
        { id: 'any', compartments: [{ contentType: null, capacity: share(0.35) }] },
      ];
      const matrix = matrixOf(stops);
      const optimum = bruteForce(stops, trucks, matrix);
      if (optimum === null) continue;
      compared++;
      const plan = planTours({ stops, trucks, distances: matrix });
      expect(plan.unplanned, `seed ${seed}`).toEqual([]);
      expect(plan.distance, `seed ${seed}`).toBeLessThanOrEqual(optimum * 1.02 + 1e-6);
    }
    expect(compared).toBeGreaterThanOrEqual(12);
  });

  it('never puts a truck over its capacity, per content', () => {
    for (const seed of [3, 4, 5]) {
      const stops = randomStops(seed, 120, ['heating_oil', 'diesel', 'pellets']);
      const trucks: Truck[] = [
        {
          id: 'mixed',
          compartments: [
            { contentType: 'heating_oil', capacity: 12000 },
            { contentType: null, capacity: 6000 },
            { contentType: null, capacity: 4000 },
          ],
        },
        { id: 'oil', compartments: [{ contentType: 'heating_oil', capacity: 30000 }] },
        {
          id: 'any',
          compartments: [
            { contentType: null, capacity: 8000 },
            { contentType: null, capacity: 8000 },
            { contentType: null, capacity: 5000 },
          ],
        },
      ];
      const plan = planTours({ stops, trucks, distances: matrixOf(stops), improvementRounds: 10 });
      for (const tour of plan.tours) {
        const load: Record<string, number> = {};
        for (const stop of tour.stops) load[stop.contentType] = (load[stop.contentType] ?? 0) + stop.quantity;
        expect(load).toEqual(tour.load);
        expect(
          fitsByEnumeration(tour.truck.compartments, load),
          `${tour.truck.id} ${JSON.stringify(load)}`,
        ).toBe(true);
      }
      // Every stop once: on a tour or unplanned.
      const seen = [...plan.tours.flatMap((tour) => tour.stops), ...plan.unplanned.map(({ stop }) => stop)];
      expect(seen.map((stop) => stop.id).sort((a, b) => a - b)).toEqual(stops.map((stop) => stop.id));
      // More is asked for than the trucks hold: the rest waits for want of capacity.
      expect(plan.unplanned.length).toBeGreaterThan(0);
      expect(new Set(plan.unplanned.map(({ reason }) => reason))).toEqual(new Set(['no_capacity_left']));
    }
  });

  it('says why a stop fits no truck', () => {
    const stops: Stop[] = [
      { id: 0, lat: 51.3, lng: 9.5, quantity: 1000, contentType: 'heating_oil' },
      { id: 1, lat: 51.4, lng: 9.5, quantity: 9000, contentType: 'heating_oil' },
      { id: 2, lat: 51.2, lng: 9.4, quantity: 500, contentType: 'pellets' },
      { id: 3, lat: 51.35, lng: 9.6, quantity: 1500, contentType: 'diesel' },
    ];
    const trucks: Truck[] = [
      {
        id: 'a',
        compartments: [
          { contentType: 'heating_oil', capacity: 5000 },
          { contentType: 'diesel', capacity: 1000 },
        ],
      },
      { id: 'b', compartments: [{ contentType: 'diesel', capacity: 2000 }] },
    ];
    const plan = planTours({ stops, trucks, distances: matrixOf(stops) });
    expect(plan.unplanned.map(({ stop, reason }) => [stop.id, reason])).toEqual([
      [1, 'exceeds_capacity'],
      [2, 'no_compartment'],
    ]);
    expect(plan.tours.map((tour) => tour.stops.map((stop) => stop.id))).toEqual([[0], [3]]);
  });

  it('gives the same plan for the same input', () => {
    const stops = randomStops(11, 150);
    const trucks: Truck[] = ['a', 'b', 'c', 'd'].map((id) => ({
      id,
      compartments: [
        { contentType: null, capacity: 15000 },
        { contentType: null, capacity: 10000 },
      ],
    }));
    const plan = () =>
      JSON.stringify(planTours({ stops, trucks, distances: matrixOf(stops), improvementRounds: 20 }));
    expect(plan()).toBe(plan());
  });

  it('follows one-way distances (an asymmetric matrix)', () => {
    // Going round 1 -> 2 -> 3 is short, the other way round long.
    const rows = [
      [0, 1, 10, 1],
      [1, 0, 1, 10],
      [10, 10, 0, 1],
      [1, 10, 10, 0],
    ];
    const stops = [1, 2, 3].map((id) => ({ id, lat: 0, lng: 0, quantity: 1, contentType: 'x' }));
    const plan = planTours({
      stops,
      trucks: [{ id: 't', compartments: [{ contentType: null, capacity: 10 }] }],
      distances: matrixFromRows(rows),
    });
    expect(plan.tours[0].stops.map((stop) => stop.id)).toEqual([1, 2, 3]);
    expect(plan.distance).toBe(4);
  });

  it('measures the great circle in metres', () => {
    // Kassel to Frankfurt am Main: about 145 km as the crow flies.
    expect(greatCircleMetres(DEPOT, { lat: 50.1109, lng: 8.6821 }) / 1000).toBeCloseTo(145, 0);
  });
});

describe('the planner on its own thread', () => {
  it('gives the plan the planner gives on the caller’s thread', async () => {
    const stops = randomStops(21, 60);
    const trucks: Truck[] = ['a', 'b', 'c'].map((id) => ({
      id,
      compartments: [
        { contentType: null, capacity: 12000 },
        { contentType: 'diesel', capacity: 8000 },
      ],
    }));
    const input = { stops, trucks, distances: matrixOf(stops), improvementRounds: 20 };
    const here = planTours(input);
    const there = await planToursInWorker(input);
    expect(there).toEqual(here);
    // The caller's own objects come back.
    expect(there.tours[0]!.truck).toBe(trucks[0]);
  });
});
