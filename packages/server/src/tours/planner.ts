/**
 * The tour planner: a capacitated vehicle routing solver for one depot and a day's trucks.
 *
 * Each truck starts and ends at the depot and carries at most what its compartments hold
 * (truck-load.ts); the planner looks for the shortest total distance that serves as many stops as
 * the trucks can carry. Construction by Clarke and Wright's savings (parallel version; several
 * savings weights λ, the best result kept), the routes matched to trucks (largest loads first,
 * augmenting paths), the stops of routes left without a truck inserted where they cost least, then
 * local search until no move shortens the plan: 2-opt within a tour, or-opt (a run of 1–3 stops
 * moved, also reversed, within its tour or into another), exchange of two stops between tours and
 * 2-opt* (two tours swap their tails). No move ever puts a truck over its capacity. The result
 * depends only on the input (no randomness, no clock).
 */
import { mulberry32 } from '@tankportal/shared/random';
import type { DistanceMatrix } from './distances.ts';
import { TruckCapacity, type Compartment } from './truck-load.ts';

export interface PlannerStop {
  quantity: number;
  contentType: string;
}

export interface PlannerTruck {
  compartments: readonly Compartment[];
}

/**
 * Why a stop is not on a tour: no truck has a compartment that may carry its content; its quantity
 * alone exceeds what any truck holds of it; or the trucks are full with the other stops.
 */
export type UnplannedReason = 'no_compartment' | 'exceeds_capacity' | 'no_capacity_left';

export interface PlanInput<S extends PlannerStop, T extends PlannerTruck> {
  stops: readonly S[];
  trucks: readonly T[];
  /** Metres; index 0 is the depot, index i + 1 the stop i. */
  distances: DistanceMatrix;
  /** Savings weights tried (default SAVINGS_WEIGHTS); each is one construction and its improvement. */
  savingsWeights?: readonly number[];
  /** Rounds of ruin and recreate after the construction (default: by the number of stops). */
  improvementRounds?: number;
}

export interface PlannedTour<S, T> {
  truck: T;
  /** In the order the truck visits them. */
  stops: S[];
  /** Metres from the depot over every stop back to the depot; 0 for a truck without stops. */
  distance: number;
  /** Quantity per content on the tour. */
  load: Record<string, number>;
}

export interface Plan<S, T> {
  /** One per truck, in the trucks' order. */
  tours: PlannedTour<S, T>[];
  unplanned: { stop: S; reason: UnplannedReason }[];
  /** Metres, all tours. */
  distance: number;
}

export const SAVINGS_WEIGHTS: readonly number[] = [1, 0.6, 1.4];

/** A move must save at least this many metres: rounding never loops. */
const GAIN = 1e-6;

interface Candidate {
  routes: Route[];
  left: number[];
  distance: number;
}

/** Fewer stops left over first, then shorter. */
function better(one: Candidate, other: Candidate): boolean {
  return (
    one.left.length < other.left.length ||
    (one.left.length === other.left.length && one.distance < other.distance - GAIN)
  );
}

/** Rounds of ruin and recreate: many for a few stops, fewer as each round's search grows with n². */
function defaultRounds(stops: number): number {
  return Math.max(10, Math.min(300, Math.round(2_000_000 / (stops * stops))));
}

interface Route {
  truck: number;
  nodes: number[];
  /** seq = [0, ...nodes, 0]; forward[k] = distance along seq from seq[0] to seq[k]. */
  seq: number[];
  forward: Float64Array;
  /** backward[k] = distance of seq[0..k] walked the other way round (seq[k] to seq[0]). */
  backward: Float64Array;
  load: Float64Array;
  /** prefixLoad[k * contents + c]: content c of nodes[0..k-1] (k = 0..nodes.length). */
  prefixLoad: Float64Array;
}

class Solver<S extends PlannerStop, T extends PlannerTruck> {
  private readonly size: number;
  private readonly d: Float64Array;
  private readonly contents: string[];
  private readonly contentOf: Int32Array;
  private readonly quantityOf: Float64Array;
  private readonly capacities: TruckCapacity[];
  private readonly scratch: Float64Array;
  private readonly scratch2: Float64Array;
  private readonly moveBudget: number;

  private readonly input: PlanInput<S, T>;

  constructor(input: PlanInput<S, T>) {
    this.input = input;
    const n = input.stops.length;
    if (input.distances.size !== n + 1)
      throw new Error(`the distance matrix has ${input.distances.size} places for ${n} stops and the depot`);
    this.size = n + 1;
    this.d = input.distances.values;
    const contentIndex = new Map<string, number>();
    for (const stop of input.stops)
      if (!contentIndex.has(stop.contentType)) contentIndex.set(stop.contentType, contentIndex.size);
    this.contents = [...contentIndex.keys()];
    this.contentOf = new Int32Array(this.size).fill(-1);
    this.quantityOf = new Float64Array(this.size);
    input.stops.forEach((stop, i) => {
      this.contentOf[i + 1] = contentIndex.get(stop.contentType)!;
      this.quantityOf[i + 1] = stop.quantity;
    });
    this.capacities = input.trucks.map((truck) => new TruckCapacity(truck.compartments, contentIndex));
    this.scratch = new Float64Array(this.contents.length);
    this.scratch2 = new Float64Array(this.contents.length);
    this.moveBudget = 200 * this.size + 1000;
  }

  private dist(a: number, b: number): number {
    return this.d[a * this.size + b];
  }

  solve(): Plan<S, T> {
    const { stops, trucks } = this.input;
    const unplanned: { node: number; reason: UnplannedReason }[] = [];
    const plannable: number[] = [];
    for (let node = 1; node < this.size; node++) {
      const reason = this.aloneReason(node);
      if (reason) unplanned.push({ node, reason });
      else plannable.push(node);
    }
    let best: Candidate | null = null;
    if (trucks.length > 0 && plannable.length > 0) {
      for (const weight of this.input.savingsWeights ?? SAVINGS_WEIGHTS) {
        const candidate = this.construct(plannable, weight);
        if (best === null || better(candidate, best)) best = candidate;
      }
      best = this.ruinAndRecreate(best!, plannable.length);
    }
    const routes = best?.routes ?? trucks.map((_, truck) => this.route(truck, []));
    const left = best?.left ?? (trucks.length > 0 ? [] : plannable);
    for (const node of left) unplanned.push({ node, reason: 'no_capacity_left' });
    unplanned.sort((a, b) => a.node - b.node);

    const tours = routes.map((route) => {
      const load: Record<string, number> = {};
      route.load.forEach((quantity, content) => {
        if (quantity > 0) load[this.contents[content]] = quantity;
      });
      return {
        truck: trucks[route.truck],
        stops: route.nodes.map((node) => stops[node - 1]),
        distance: route.nodes.length === 0 ? 0 : this.cost(route),
        load,
      };
    });
    return {
      tours,
      unplanned: unplanned.map(({ node, reason }) => ({ stop: stops[node - 1], reason })),
      distance: tours.reduce((sum, tour) => sum + tour.distance, 0),
    };
  }

  /** Why a stop fits no truck even alone, or null when some truck could take it. */
  private aloneReason(node: number): UnplannedReason | null {
    const load = this.scratch.fill(0);
    load[this.contentOf[node]] = this.quantityOf[node];
    if (this.capacities.some((capacity) => capacity.fits(load))) return null;
    load[this.contentOf[node]] = 1e-2;
    return this.capacities.some((capacity) => capacity.fits(load)) ? 'exceeds_capacity' : 'no_compartment';
  }

  // --- construction -------------------------------------------------------------------------------

  private construct(plannable: number[], weight: number): Candidate {
    const built = this.savings(plannable, weight);
    // Routes to trucks: the heaviest routes first, each taking a truck it fits, moving earlier routes
    // to other trucks where that frees one (augmenting paths: the most quantity gets a truck).
    const order = built
      .map((nodes, index) => ({
        nodes,
        index,
        quantity: nodes.reduce((sum, node) => sum + this.quantityOf[node], 0),
      }))
      .sort((a, b) => b.quantity - a.quantity || a.nodes[0] - b.nodes[0]);
    const loads = built.map((nodes) => this.loadOf(nodes));
    const routeOfTruck = new Int32Array(this.capacities.length).fill(-1);
    const augment = (route: number, seen: Uint8Array): boolean => {
      for (let truck = 0; truck < this.capacities.length; truck++) {
        if (seen[truck] || !this.capacities[truck].fits(loads[route])) continue;
        seen[truck] = 1;
        if (routeOfTruck[truck] === -1 || augment(routeOfTruck[truck], seen)) {
          routeOfTruck[truck] = route;
          return true;
        }
      }
      return false;
    };
    const left: number[] = [];
    for (const { index, nodes } of order) {
      if (!augment(index, new Uint8Array(this.capacities.length))) left.push(...nodes);
    }
    const routes = this.capacities.map((_, truck) =>
      this.route(truck, routeOfTruck[truck] === -1 ? [] : built[routeOfTruck[truck]]),
    );
    let unplaced = this.insertAll(routes, left);
    this.improve(routes);
    if (unplaced.length > 0) {
      const before = unplaced.length;
      unplaced = this.insertAll(routes, unplaced);
      if (unplaced.length < before) this.improve(routes);
    }
    return { routes, left: unplaced, distance: this.total(routes) };
  }

  /**
   * Ruin and recreate: takes a few stops off the tours (a stop and its nearest neighbours, or stops
   * at random, or a whole tour), puts them back where they cost least and improves; the next round
   * starts from the result when it serves more stops or is not much longer. Local search alone stops where every single move is blocked by a full
   * truck; this gets past such places. Seeded: the same input gives the same plan.
   */
  private ruinAndRecreate(start: Candidate, plannable: number): Candidate {
    const rounds = this.input.improvementRounds ?? defaultRounds(plannable);
    const random = mulberry32(0x7a11 + plannable);
    const nearest = new Map<number, number[]>();
    const neighbours = (node: number) => {
      let list = nearest.get(node);
      if (!list) {
        list = [];
        for (let other = 1; other < this.size; other++) if (other !== node) list.push(other);
        list.sort(
          (a, b) =>
            this.dist(node, a) + this.dist(a, node) - this.dist(node, b) - this.dist(b, node) || a - b,
        );
        nearest.set(node, list);
      }
      return list;
    };
    let best = start;
    let current = start;
    for (let round = 0; round < rounds; round++) {
      const planned = current.routes.flatMap((route) => route.nodes);
      if (planned.length === 0) break;
      const most = planned.length <= 10 ? planned.length : Math.min(12, Math.ceil(planned.length * 0.15));
      const count = 1 + Math.floor(random() * most);
      const removed = new Set<number>();
      const kind = random();
      if (kind < 0.15) {
        const used = current.routes.filter((route) => route.nodes.length > 0);
        for (const node of used[Math.floor(random() * used.length)].nodes) removed.add(node);
      } else if (kind < 0.6) {
        const centre = planned[Math.floor(random() * planned.length)];
        const onTour = new Set(planned);
        removed.add(centre);
        for (const node of neighbours(centre)) {
          if (removed.size >= count) break;
          if (onTour.has(node)) removed.add(node);
        }
      } else {
        while (removed.size < count) removed.add(planned[Math.floor(random() * planned.length)]);
      }
      const routes = current.routes.map((route) =>
        route.nodes.some((node) => removed.has(node))
          ? this.route(
              route.truck,
              route.nodes.filter((node) => !removed.has(node)),
            )
          : route,
      );
      const left = this.insertAll(routes, [...removed, ...current.left], random);
      this.improve(routes);
      const candidate = { routes, left, distance: this.total(routes) };
      // Threshold accepting: a somewhat longer plan may be the way to a shorter one; the allowance
      // shrinks to nothing over the rounds, and the best plan seen is kept apart.
      const allowance = 0.03 * (1 - round / rounds);
      if (
        better(candidate, current) ||
        (candidate.left.length === current.left.length &&
          candidate.distance < current.distance * (1 + allowance))
      )
        current = candidate;
      if (better(current, best)) best = current;
    }
    return best;
  }

  private total(routes: Route[]): number {
    return routes.reduce((sum, route) => sum + this.cost(route), 0);
  }

  /** Clarke and Wright's parallel savings; a merged route must fit some truck. */
  private savings(plannable: number[], weight: number): number[][] {
    const count = plannable.length;
    const pairs = (count * (count - 1)) / 2;
    const value = new Float64Array(pairs);
    const first = new Int32Array(pairs);
    const second = new Int32Array(pairs);
    let p = 0;
    for (let i = 0; i < count; i++) {
      const a = plannable[i];
      for (let j = i + 1; j < count; j++) {
        const b = plannable[j];
        const link = Math.min(this.dist(a, b), this.dist(b, a));
        value[p] = this.dist(a, 0) + this.dist(0, b) - weight * link;
        first[p] = a;
        second[p] = b;
        p++;
      }
    }
    const order = new Uint32Array(pairs);
    for (let k = 0; k < pairs; k++) order[k] = k;
    order.sort((x, y) => value[y] - value[x] || x - y);

    interface Partial {
      nodes: number[];
      load: Float64Array;
    }
    const partOf: (Partial | null)[] = new Array<Partial | null>(this.size).fill(null);
    const parts: Partial[] = plannable.map((node) => {
      const part = { nodes: [node], load: this.loadOf([node]) };
      partOf[node] = part;
      return part;
    });
    const merged = this.scratch;
    for (const k of order) {
      if (value[k] <= 0) break;
      const a = first[k];
      const b = second[k];
      const partA = partOf[a]!;
      const partB = partOf[b]!;
      if (partA === partB) continue;
      const endsA = partA.nodes[0] === a || partA.nodes.at(-1) === a;
      const endsB = partB.nodes[0] === b || partB.nodes.at(-1) === b;
      if (!endsA || !endsB) continue;
      for (let c = 0; c < merged.length; c++) merged[c] = partA.load[c] + partB.load[c];
      if (!this.capacities.some((capacity) => capacity.fits(merged))) continue;
      // A ending in a, then B from b; or B ending in b, then A from a: the shorter.
      const aLast = partA.nodes.at(-1) === a ? partA.nodes : [...partA.nodes].reverse();
      const bFirst = partB.nodes[0] === b ? partB.nodes : [...partB.nodes].reverse();
      const one = aLast.concat(bFirst);
      const two = [...bFirst].reverse().concat([...aLast].reverse());
      const nodes = this.pathCost(one) <= this.pathCost(two) ? one : two;
      const part = { nodes, load: Float64Array.from(merged) };
      for (const node of nodes) partOf[node] = part;
      parts[parts.indexOf(partA)] = part;
      parts.splice(parts.indexOf(partB), 1);
    }
    return parts.map((part) => part.nodes);
  }

  /** Inserts each node where it costs least; answers the nodes that fit nowhere. */
  private insertAll(routes: Route[], nodes: number[], random?: () => number): number[] {
    const left: number[] = [];
    // Largest first; in ruin and recreate with some noise, so that another order gets its chance.
    const weight = new Map(
      nodes.map((node) => [node, this.quantityOf[node] * (random ? 0.3 + random() : 1)]),
    );
    const ordered = [...nodes].sort((a, b) => weight.get(b)! - weight.get(a)! || a - b);
    for (const node of ordered) {
      let bestRoute = -1;
      let bestPosition = -1;
      let bestCost = Infinity;
      routes.forEach((route, r) => {
        const load = this.scratch;
        load.set(route.load);
        load[this.contentOf[node]] += this.quantityOf[node];
        if (!this.capacities[route.truck].fits(load)) return;
        for (let position = 0; position + 1 < route.seq.length; position++) {
          const u = route.seq[position];
          const v = route.seq[position + 1];
          const cost = this.dist(u, node) + this.dist(node, v) - this.dist(u, v);
          if (cost < bestCost - GAIN) {
            bestCost = cost;
            bestRoute = r;
            bestPosition = position;
          }
        }
      });
      if (bestRoute === -1) {
        if (!this.insertByEjection(routes, node)) left.push(node);
        continue;
      }
      const route = routes[bestRoute];
      const next = [...route.nodes];
      next.splice(bestPosition, 0, node);
      routes[bestRoute] = this.route(route.truck, next);
    }
    return left.sort((a, b) => a - b);
  }

  /**
   * Makes room for a node no tour holds: it takes the place of a stop of some tour that moves to
   * another tour with room for it (the cheapest such pair of insertions), or of two stops that each
   * go to some other tour.
   */
  private insertByEjection(routes: Route[], node: number): boolean {
    let best: { cost: number; apply: () => void } | null = null;
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r];
      for (let k = 0; k < route.nodes.length; k++) {
        const out = route.nodes[k];
        const load = this.scratch;
        load.set(route.load);
        load[this.contentOf[out]] -= this.quantityOf[out];
        load[this.contentOf[node]] += this.quantityOf[node];
        if (!this.capacities[route.truck].fits(load)) continue;
        const without = route.nodes.filter((_, index) => index !== k);
        const inside = this.cheapestPlace(without, node);
        for (let s = 0; s < routes.length; s++) {
          if (s === r) continue;
          const other = routes[s];
          const otherLoad = this.scratch2;
          otherLoad.set(other.load);
          otherLoad[this.contentOf[out]] += this.quantityOf[out];
          if (!this.capacities[other.truck].fits(otherLoad)) continue;
          const elsewhere = this.cheapestPlace(other.nodes, out);
          const cost = this.pathCostOrZero(without) - this.cost(route) + inside.cost + elsewhere.cost;
          if (best === null || cost < best.cost - GAIN) {
            best = {
              cost,
              apply: () => {
                const first = [...without];
                first.splice(inside.position, 0, node);
                const second = [...other.nodes];
                second.splice(elsewhere.position, 0, out);
                routes[r] = this.route(route.truck, first);
                routes[s] = this.route(other.truck, second);
              },
            };
          }
        }
      }
    }
    if (best === null) return false;
    best.apply();
    return true;
  }

  /** The cheapest place for a node in a tour (index in nodes) and what it adds. */
  private cheapestPlace(nodes: number[], node: number): { position: number; cost: number } {
    let position = 0;
    let cost = Infinity;
    for (let k = 0; k <= nodes.length; k++) {
      const u = k === 0 ? 0 : nodes[k - 1];
      const v = k === nodes.length ? 0 : nodes[k];
      const added = this.dist(u, node) + this.dist(node, v) - this.dist(u, v);
      if (added < cost - GAIN) {
        cost = added;
        position = k;
      }
    }
    return { position, cost };
  }

  private pathCostOrZero(nodes: number[]): number {
    return nodes.length === 0 ? 0 : this.pathCost(nodes);
  }

  // --- improvement ----------------------------------------------------------------------------------

  private improve(routes: Route[]): void {
    let moves = 0;
    while (moves < this.moveBudget) {
      if (this.twoOpt(routes) || this.orOpt(routes) || this.exchange(routes) || this.twoOptStar(routes)) {
        moves++;
        continue;
      }
      break;
    }
  }

  /** Reverses a run of stops within a tour. */
  private twoOpt(routes: Route[]): boolean {
    for (let r = 0; r < routes.length; r++) {
      const { seq, forward: f, backward: b } = routes[r];
      const last = seq.length - 2;
      for (let i = 1; i < last; i++) {
        for (let j = i + 1; j <= last; j++) {
          const delta =
            this.dist(seq[i - 1], seq[j]) +
            (b[j] - b[i]) +
            this.dist(seq[i], seq[j + 1]) -
            this.dist(seq[i - 1], seq[i]) -
            (f[j] - f[i]) -
            this.dist(seq[j], seq[j + 1]);
          if (delta < -GAIN) {
            const nodes = routes[r].nodes;
            const next = [...nodes.slice(0, i - 1), ...nodes.slice(i - 1, j).reverse(), ...nodes.slice(j)];
            routes[r] = this.route(routes[r].truck, next);
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Moves a run of 1–3 stops (also reversed) elsewhere in its tour or into another tour. */
  private orOpt(routes: Route[]): boolean {
    for (let r = 0; r < routes.length; r++) {
      const from = routes[r];
      const { seq, forward: f, backward: b } = from;
      const count = seq.length - 2;
      for (let length = 1; length <= 3; length++) {
        for (let i = 1; i + length - 1 <= count; i++) {
          const j = i + length - 1;
          const head = seq[i];
          const tail = seq[j];
          const before = seq[i - 1];
          const after = seq[j + 1];
          const along = f[j] - f[i];
          const against = b[j] - b[i];
          const removed = this.dist(before, head) + along + this.dist(tail, after) - this.dist(before, after);
          if (removed <= GAIN) continue;
          for (let s = 0; s < routes.length; s++) {
            const to = routes[s];
            if (s !== r && !this.fitsWithRun(to, seq, i, j, null)) continue;
            for (let p = 0; p + 1 < to.seq.length; p++) {
              if (s === r && p >= i - 1 && p <= j) continue;
              const u = to.seq[p];
              const v = to.seq[p + 1];
              const straight = this.dist(u, head) + along + this.dist(tail, v) - this.dist(u, v);
              const reversed =
                length === 1 ? Infinity : this.dist(u, tail) + against + this.dist(head, v) - this.dist(u, v);
              const added = Math.min(straight, reversed);
              if (added - removed < -GAIN) {
                this.applyOrOpt(routes, r, s, i, j, p, reversed < straight);
                return true;
              }
            }
          }
        }
      }
    }
    return false;
  }

  private applyOrOpt(
    routes: Route[],
    r: number,
    s: number,
    i: number,
    j: number,
    p: number,
    reverse: boolean,
  ): void {
    const run = routes[r].nodes.slice(i - 1, j);
    if (reverse) run.reverse();
    if (r === s) {
      const nodes = routes[r].nodes;
      // p is an edge of seq: insert after seq[p], i.e. before nodes[p].
      const next =
        p < i - 1
          ? [...nodes.slice(0, p), ...run, ...nodes.slice(p, i - 1), ...nodes.slice(j)]
          : [...nodes.slice(0, i - 1), ...nodes.slice(j, p), ...run, ...nodes.slice(p)];
      routes[r] = this.route(routes[r].truck, next);
      return;
    }
    const fromNodes = [...routes[r].nodes.slice(0, i - 1), ...routes[r].nodes.slice(j)];
    const toNodes = [...routes[s].nodes.slice(0, p), ...run, ...routes[s].nodes.slice(p)];
    routes[r] = this.route(routes[r].truck, fromNodes);
    routes[s] = this.route(routes[s].truck, toNodes);
  }

  /** Whether `to` holds its load plus seq[i..j] (minus `without`, a node of `to`). */
  private fitsWithRun(to: Route, seq: number[], i: number, j: number, without: number | null): boolean {
    const load = this.scratch;
    load.set(to.load);
    for (let k = i; k <= j; k++) load[this.contentOf[seq[k]]] += this.quantityOf[seq[k]];
    if (without !== null) load[this.contentOf[without]] -= this.quantityOf[without];
    return this.capacities[to.truck].fits(load);
  }

  /** Exchanges two stops of different tours. */
  private exchange(routes: Route[]): boolean {
    for (let r = 0; r < routes.length; r++) {
      const one = routes[r].seq;
      for (let s = r + 1; s < routes.length; s++) {
        const two = routes[s].seq;
        for (let i = 1; i + 1 < one.length; i++) {
          const a = one[i];
          const pa = one[i - 1];
          const na = one[i + 1];
          const outA = this.dist(pa, a) + this.dist(a, na);
          for (let j = 1; j + 1 < two.length; j++) {
            const b = two[j];
            const pb = two[j - 1];
            const nb = two[j + 1];
            const delta =
              this.dist(pa, b) +
              this.dist(b, na) -
              outA +
              this.dist(pb, a) +
              this.dist(a, nb) -
              this.dist(pb, b) -
              this.dist(b, nb);
            if (delta >= -GAIN) continue;
            if (!this.fitsWithRun(routes[r], two, j, j, a) || !this.fitsWithRun(routes[s], one, i, i, b))
              continue;
            const first = [...routes[r].nodes];
            const second = [...routes[s].nodes];
            first[i - 1] = b;
            second[j - 1] = a;
            routes[r] = this.route(routes[r].truck, first);
            routes[s] = this.route(routes[s].truck, second);
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Two tours swap their tails: one keeps seq[0..i] and takes the other's tail after j, and back. */
  private twoOptStar(routes: Route[]): boolean {
    const contents = this.contents.length;
    for (let r = 0; r < routes.length; r++) {
      const one = routes[r];
      for (let s = r + 1; s < routes.length; s++) {
        const two = routes[s];
        const countOne = one.nodes.length;
        const countTwo = two.nodes.length;
        for (let i = 0; i <= countOne; i++) {
          for (let j = 0; j <= countTwo; j++) {
            // Swapping the whole of both or nothing of either changes nothing.
            if ((i === 0 && j === 0) || (i === countOne && j === countTwo)) continue;
            const delta =
              this.dist(one.seq[i], two.seq[j + 1]) +
              this.dist(two.seq[j], one.seq[i + 1]) -
              this.dist(one.seq[i], one.seq[i + 1]) -
              this.dist(two.seq[j], two.seq[j + 1]);
            if (delta >= -GAIN) continue;
            const loadOne = this.scratch;
            const loadTwo = this.scratch2;
            for (let c = 0; c < contents; c++) {
              const headOne = one.prefixLoad[i * contents + c];
              const headTwo = two.prefixLoad[j * contents + c];
              loadOne[c] = headOne + (two.load[c] - headTwo);
              loadTwo[c] = headTwo + (one.load[c] - headOne);
            }
            if (!this.capacities[one.truck].fits(loadOne) || !this.capacities[two.truck].fits(loadTwo))
              continue;
            const first = [...one.nodes.slice(0, i), ...two.nodes.slice(j)];
            const second = [...two.nodes.slice(0, j), ...one.nodes.slice(i)];
            routes[r] = this.route(one.truck, first);
            routes[s] = this.route(two.truck, second);
            return true;
          }
        }
        // The other way of joining: one's head with two's head walked back, one's tail walked back
        // with two's tail.
        const endOne = one.seq.length - 1;
        const endTwo = two.seq.length - 1;
        for (let i = 0; i <= countOne; i++) {
          for (let j = 0; j <= countTwo; j++) {
            const delta =
              one.forward[i] +
              this.dist(one.seq[i], two.seq[j]) +
              two.backward[j] +
              (one.backward[endOne] - one.backward[i + 1]) +
              this.dist(one.seq[i + 1], two.seq[j + 1]) +
              (two.forward[endTwo] - two.forward[j + 1]) -
              one.forward[endOne] -
              two.forward[endTwo];
            if (delta >= -GAIN) continue;
            const loadOne = this.scratch;
            const loadTwo = this.scratch2;
            for (let c = 0; c < contents; c++) {
              const headOne = one.prefixLoad[i * contents + c];
              const headTwo = two.prefixLoad[j * contents + c];
              loadOne[c] = headOne + headTwo;
              loadTwo[c] = one.load[c] - headOne + (two.load[c] - headTwo);
            }
            if (!this.capacities[one.truck].fits(loadOne) || !this.capacities[two.truck].fits(loadTwo))
              continue;
            const first = [...one.nodes.slice(0, i), ...two.nodes.slice(0, j).reverse()];
            const second = [...one.nodes.slice(i).reverse(), ...two.nodes.slice(j)];
            routes[r] = this.route(one.truck, first);
            routes[s] = this.route(two.truck, second);
            return true;
          }
        }
      }
    }
    return false;
  }

  // --- routes -----------------------------------------------------------------------------------------

  private route(truck: number, nodes: number[]): Route {
    const seq = [0, ...nodes, 0];
    const forward = new Float64Array(seq.length);
    const backward = new Float64Array(seq.length);
    for (let k = 1; k < seq.length; k++) {
      forward[k] = forward[k - 1] + this.dist(seq[k - 1], seq[k]);
      backward[k] = backward[k - 1] + this.dist(seq[k], seq[k - 1]);
    }
    const contents = this.contents.length;
    const prefixLoad = new Float64Array((nodes.length + 1) * contents);
    nodes.forEach((node, k) => {
      prefixLoad.copyWithin((k + 1) * contents, k * contents, (k + 1) * contents);
      prefixLoad[(k + 1) * contents + this.contentOf[node]] += this.quantityOf[node];
    });
    const load = prefixLoad.slice(nodes.length * contents);
    return { truck, nodes, seq, forward, backward, load, prefixLoad };
  }

  private cost(route: Route): number {
    return route.forward[route.seq.length - 1];
  }

  private pathCost(nodes: number[]): number {
    let cost = this.dist(0, nodes[0]) + this.dist(nodes.at(-1)!, 0);
    for (let k = 1; k < nodes.length; k++) cost += this.dist(nodes[k - 1], nodes[k]);
    return cost;
  }

  private loadOf(nodes: number[]): Float64Array {
    const load = new Float64Array(this.contents.length);
    for (const node of nodes) load[this.contentOf[node]] += this.quantityOf[node];
    return load;
  }
}

/** Plans the tours: see the module's comment. */
export function planTours<S extends PlannerStop, T extends PlannerTruck>(input: PlanInput<S, T>): Plan<S, T> {
  for (const stop of input.stops)
    if (!(stop.quantity > 0) || !Number.isFinite(stop.quantity))
      throw new Error('every stop needs a positive, finite quantity');
  return new Solver(input).solve();
}
