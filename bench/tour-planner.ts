// Benchmark: the tour planner (packages/server/src/tours/planner.ts) on one core, no database.
//
// (1) Speed: 200 stops and 4 trucks (compartments of any content, heating oil and diesel stops
//     around a depot, great-circle distances times the road factor): the planner's wall time, median
//     and worst of BENCH_RUNS runs. Target: < 2 s.
// (2) Quality: a synthetic region of 500 tanks around a depot (seeded; German-looking postal codes
//     that number zones of the region in no geographic order and, within a zone, its sub-areas row by
//     row, as real postal codes roughly do), all of them planned, against a naive plan of the same
//     tanks: ordered by postal code and filled truck by truck (a truck's tour is the next stops in
//     postal-code order while they fit). The planner gets as many trucks as the naive plan used; the
//     saving is the planned tours' total distance against the naive plan's.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '@tankportal/shared/random';
import { greatCircleMatrix, type DistanceMatrix } from '../packages/server/src/tours/distances.ts';
import { planTours, type PlannerTruck } from '../packages/server/src/tours/planner.ts';
import { TruckCapacity, type Compartment } from '../packages/server/src/tours/truck-load.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DEPOT = { lat: 51.3127, lng: 9.4797 }; // Kassel
const git = (command: string) => execSync(`git ${command}`, { cwd: ROOT, encoding: 'utf8' }).trim();
const commit = git('rev-parse --short HEAD');
const uncommitted = git('status --porcelain -- packages/server/src/tours');

interface Tank {
  id: number;
  postalCode: string;
  lat: number;
  lng: number;
  quantity: number;
  contentType: string;
}
interface Truck extends PlannerTruck {
  id: number;
}

/** Tanks within `radiusKm` of the depot, in zones of a grid with postal codes as described above. */
function region(seed: number, count: number, radiusKm: number): Tank[] {
  const random = mulberry32(seed);
  const zonesPerSide = 6;
  const prefixes = Array.from({ length: zonesPerSide * zonesPerSide }, (_, i) => 340 + i);
  for (let i = prefixes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [prefixes[i], prefixes[j]] = [prefixes[j], prefixes[i]];
  }
  const tanks: Tank[] = [];
  while (tanks.length < count) {
    // Villages: tanks gather around a few points, as houses do.
    const x = (random() * 2 - 1) * radiusKm;
    const y = (random() * 2 - 1) * radiusKm;
    if (Math.hypot(x, y) > radiusKm) continue;
    const houses = 1 + Math.floor(random() * 6);
    for (let h = 0; h < houses && tanks.length < count; h++) {
      const hx = Math.max(-radiusKm, Math.min(radiusKm - 1e-9, x + (random() - 0.5) * 2));
      const hy = Math.max(-radiusKm, Math.min(radiusKm - 1e-9, y + (random() - 0.5) * 2));
      const zoneX = Math.floor(((hx + radiusKm) / (2 * radiusKm)) * zonesPerSide);
      const zoneY = Math.floor(((hy + radiusKm) / (2 * radiusKm)) * zonesPerSide);
      const zoneSize = (2 * radiusKm) / zonesPerSide;
      const subX = Math.floor(((hx + radiusKm - zoneX * zoneSize) / zoneSize) * 4);
      const subY = Math.floor(((hy + radiusKm - zoneY * zoneSize) / zoneSize) * 4);
      const prefix = prefixes[zoneY * zonesPerSide + zoneX];
      tanks.push({
        id: tanks.length,
        postalCode: `${prefix}${String(subY * 4 + subX + 10 + Math.floor(random() * 3) * 20).padStart(2, '0')}`,
        lat: DEPOT.lat + hy / 111.2,
        lng: DEPOT.lng + hx / (111.2 * Math.cos((DEPOT.lat * Math.PI) / 180)),
        quantity: 800 + Math.round(random() * 22) * 100,
        contentType: random() < 0.85 ? 'heating_oil' : 'diesel',
      });
    }
  }
  return tanks;
}

const truckCompartments: Compartment[] = [
  { contentType: null, capacity: 6000 },
  { contentType: null, capacity: 6000 },
  { contentType: null, capacity: 4000 },
  { contentType: null, capacity: 4000 },
];

/** Postal-code order, filled truck by truck; answers the tours as lists of tank indexes. */
function naivePlan(tanks: Tank[]): number[][] {
  const contentIndex = new Map([
    ['heating_oil', 0],
    ['diesel', 1],
  ]);
  const capacity = new TruckCapacity(truckCompartments, contentIndex);
  const order = tanks
    .map((_, i) => i)
    .sort((a, b) => tanks[a].postalCode.localeCompare(tanks[b].postalCode) || a - b);
  const tours: number[][] = [];
  let tour: number[] = [];
  const load = [0, 0];
  for (const i of order) {
    const content = contentIndex.get(tanks[i].contentType)!;
    load[content] += tanks[i].quantity;
    if (!capacity.fits(load)) {
      tours.push(tour);
      tour = [];
      load.fill(0);
      load[content] = tanks[i].quantity;
    }
    tour.push(i);
  }
  if (tour.length > 0) tours.push(tour);
  return tours;
}

function tourDistance(matrix: DistanceMatrix, tour: number[]): number {
  const d = (a: number, b: number) => matrix.values[a * matrix.size + b];
  let distance = 0;
  let at = 0;
  for (const i of tour) {
    distance += d(at, i + 1);
    at = i + 1;
  }
  return distance + d(at, 0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const loadBefore = loadavg();
const startedAt = new Date();

// --- (1) 200 stops, 4 trucks ------------------------------------------------------------------------
const speedTanks = region(200, 200, 35);
const speedTrucks: Truck[] = [0, 1, 2, 3].map((id) => ({
  id,
  compartments: [
    { contentType: null, capacity: 40000 },
    { contentType: null, capacity: 30000 },
    { contentType: 'heating_oil', capacity: 50000 },
  ],
}));
const speedDemand = speedTanks.reduce((sum, tank) => sum + tank.quantity, 0);
const speedTimes: number[] = [];
const speedCpu: number[] = [];
let speedPlan: ReturnType<typeof planTours<Tank, Truck>> | null = null;
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const matrix = greatCircleMatrix([DEPOT, ...speedTanks]);
  speedPlan = planTours({ stops: speedTanks, trucks: speedTrucks, distances: matrix });
  speedTimes.push(performance.now() - started);
  const cpu = process.cpuUsage(cpuBefore);
  speedCpu.push((cpu.user + cpu.system) / 1000);
  console.log(
    `200 stops, run ${run + 1}: ${speedTimes.at(-1)!.toFixed(0)} ms, CPU ${speedCpu.at(-1)!.toFixed(0)} ms`,
  );
}

// --- (2) 500 tanks: planner against postal-code order --------------------------------------------------
const tanks = region(500, 500, 40);
const matrix = greatCircleMatrix([DEPOT, ...tanks]);
const naive = naivePlan(tanks);
const naiveDistance = naive.reduce((sum, tour) => sum + tourDistance(matrix, tour), 0);
const trucks: Truck[] = naive.map((_, id) => ({ id, compartments: truckCompartments }));
const regionStarted = performance.now();
const regionCpuBefore = process.cpuUsage();
const plan = planTours({ stops: tanks, trucks, distances: matrix });
const regionMs = performance.now() - regionStarted;
const regionCpu = process.cpuUsage(regionCpuBefore);
const regionCpuMs = (regionCpu.user + regionCpu.system) / 1000;
const saving = 1 - plan.distance / naiveDistance;
const usedTours = plan.tours.filter((tour) => tour.stops.length > 0).length;
console.log(
  `500 tanks: naive ${(naiveDistance / 1000).toFixed(0)} km in ${naive.length} tours, planned ${(plan.distance / 1000).toFixed(0)} km in ${usedTours} tours, saving ${(saving * 100).toFixed(1)} %, ${regionMs.toFixed(0)} ms`,
);
const loadAfter = loadavg();

const km = (metres: number) => (metres / 1000).toLocaleString('en', { maximumFractionDigits: 1 });
const report = `# tour-planner benchmark — last recorded run

Recorded by \`npm run bench:tours\` on ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC at commit \`${commit}\`${uncommitted ? ' (with uncommitted changes in packages/server/src/tours)' : ''}.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, shared with other work; load average before the run
${loadBefore.map((value) => value.toFixed(2)).join(' / ')} (1 / 5 / 15 min), ${loadAfter[0].toFixed(2)} at the end. Node ${process.version}, one thread.

What: \`planTours\` (packages/server/src/tours/planner.ts) with great-circle distances × 1.3, the matrix
computed inside the timing. No database, no HTTP. Wall time depends on what else the shared machine
runs; the CPU time of this process (\`process.cpuUsage\`, which includes the garbage collector's
threads) hardly does.

## 1. 200 stops, 4 trucks — target < 2 s

200 tanks within 35 km of the depot (seed 200; 85 % heating oil, 15 % diesel, 800–3,000 l each,
${Math.round(speedDemand).toLocaleString('en')} l in all), 4 trucks of 120,000 l each (compartments of 40,000 and
30,000 l for any content, 50,000 l for heating oil): every stop fits. Real tank trucks hold
20,000–40,000 l; these are sized so that 200 stops fit 4 trucks, the case the target names (a tour
of 50 stops is long; section 2 has realistic trucks).

| runs | wall median | wall worst | CPU median | planned stops | unplanned | total distance |
|---|---|---|---|---|---|---|
| ${RUNS} | **${median(speedTimes).toFixed(0)} ms** | ${Math.max(...speedTimes).toFixed(0)} ms | ${median(speedCpu).toFixed(0)} ms | ${speedPlan!.tours.reduce((sum, tour) => sum + tour.stops.length, 0)} | ${speedPlan!.unplanned.length} | ${km(speedPlan!.distance)} km |

## 2. 500 tanks: the planner against postal-code order

500 tanks within 40 km of the depot (seed 500; villages of 1–6 houses; postal codes 340xx–375xx: 36
zones numbered in shuffled order, within a zone 16 sub-areas numbered row by row). Trucks of 20,000 l
(6,000 + 6,000 + 4,000 + 4,000 l compartments, any content). Naive: the tanks in postal-code order,
each truck filled until the next tank does not fit, then the next truck. The planner gets as many
trucks as the naive plan needed.

| plan | tours | total distance | wall time | CPU |
|---|---|---|---|---|
| naive (postal-code order, truck by truck) | ${naive.length} | ${km(naiveDistance)} km | – | – |
| planner | ${usedTours} of ${trucks.length} trucks | ${km(plan.distance)} km | ${(regionMs / 1000).toFixed(1)} s | ${(regionCpuMs / 1000).toFixed(1)} s |

**Saving: ${(saving * 100).toFixed(1)} %** of the naive plan's distance (${km(naiveDistance - plan.distance)} km), unplanned: ${plan.unplanned.length}.
`;
writeFileSync(path.join(ROOT, 'bench/results/tour-planner.md'), report);
console.log(report);
