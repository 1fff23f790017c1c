import { Worker } from 'node:worker_threads';
import type { DistanceMatrix } from './distances.ts';
import type { Plan, PlanInput, PlannerStop, PlannerTruck, UnplannedReason } from './planner.ts';

/**
 * The planner on a thread of its own: a plan of a few hundred stops takes a second or more of CPU,
 * which on the server's own thread would hold up every request and report meanwhile. The same
 * plan as `planTours` gives (the worker runs it on the same input).
 */

export interface WorkerInput {
  stops: PlannerStop[];
  trucks: PlannerTruck[];
  distances: DistanceMatrix;
  savingsWeights?: readonly number[];
  improvementRounds?: number;
}

export interface IndexedPlan {
  tours: { truck: number; stops: number[]; distance: number; load: Record<string, number> }[];
  unplanned: { stop: number; reason: UnplannedReason }[];
  distance: number;
}

export function planToursInWorker<S extends PlannerStop, T extends PlannerTruck>(
  input: PlanInput<S, T>,
): Promise<Plan<S, T>> {
  const workerInput: WorkerInput = {
    stops: input.stops.map(({ quantity, contentType }) => ({ quantity, contentType })),
    trucks: input.trucks.map(({ compartments }) => ({
      compartments: compartments.map(({ contentType, capacity }) => ({ contentType, capacity })),
    })),
    distances: input.distances,
    savingsWeights: input.savingsWeights,
    improvementRounds: input.improvementRounds,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./plan-worker.ts', import.meta.url), { workerData: workerInput });
    let answered = false;
    worker.once('message', (answer: IndexedPlan) => {
      answered = true;
      resolve({
        tours: answer.tours.map((tour) => ({
          truck: input.trucks[tour.truck],
          stops: tour.stops.map((index) => input.stops[index]),
          distance: tour.distance,
          load: tour.load,
        })),
        unplanned: answer.unplanned.map(({ stop, reason }) => ({ stop: input.stops[stop], reason })),
        distance: answer.distance,
      });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the tour planner's thread ended (${code}) without a plan`));
    });
  });
}
