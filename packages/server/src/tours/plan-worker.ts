import { parentPort, workerData } from 'node:worker_threads';
import { planTours, type PlannerStop, type PlannerTruck } from './planner.ts';
import type { IndexedPlan, WorkerInput } from './plan-in-worker.ts';

// The planner's thread (plan-in-worker.ts): plans what it is handed and answers by index.
const input = workerData as WorkerInput;
const stops = input.stops.map((stop, index) => ({ ...stop, index }));
const trucks = input.trucks.map((truck, index) => ({ ...truck, index }));
const plan = planTours<PlannerStop & { index: number }, PlannerTruck & { index: number }>({
  stops,
  trucks,
  distances: input.distances,
  savingsWeights: input.savingsWeights,
  improvementRounds: input.improvementRounds,
});
const answer: IndexedPlan = {
  tours: plan.tours.map((tour) => ({
    truck: tour.truck.index,
    stops: tour.stops.map((stop) => stop.index),
    distance: tour.distance,
    load: tour.load,
  })),
  unplanned: plan.unplanned.map(({ stop, reason }) => ({ stop: stop.index, reason })),
  distance: plan.distance,
};
parentPort!.postMessage(answer);
