import { isConnectionLost } from '../db/connection-lost.ts';

/**
 * Runs one sensor's part of a round so that a failure of that sensor (a value the database
 * refuses, a bug met by its data) is logged and the round goes on with the next sensor: one bad
 * record never stops the others, and the round's id cursor has moved past it, so it is tried again
 * only in the next round. A lost database connection is no fault of the sensor: it ends the round
 * (the job runs again on its schedule).
 */
export async function runIsolated(
  what: string,
  sensor: { id: number },
  work: () => Promise<void>,
  log: (message: string) => void,
): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    if (isConnectionLost(error)) throw error;
    const failure = error as Error;
    // The database's own words, not the statement that Drizzle wraps them in.
    const reason = failure.cause instanceof Error ? failure.cause.message : failure.message;
    log(`${what} of sensor ${sensor.id} failed, the round goes on: ${reason}`);
    return false;
  }
}

/**
 * Writes many sensors' rows of a round in one statement (`write`); when the database refuses it,
 * each row alone through `runIsolated`, so that one sensor's bad row costs only that sensor its
 * write. Answers the sensors whose row was refused. A lost connection ends the round as in
 * `runIsolated`.
 */
export async function writeIsolated<T>(
  what: string,
  rows: readonly T[],
  sensorOf: (row: T) => number,
  write: (rows: T[]) => PromiseLike<unknown>,
  log: (message: string) => void,
): Promise<Set<number>> {
  const refused = new Set<number>();
  if (rows.length === 0) return refused;
  if (rows.length > 1)
    try {
      await write([...rows]);
      return refused;
    } catch (error) {
      if (isConnectionLost(error)) throw error;
    }
  for (const row of rows)
    if (!(await runIsolated(what, { id: sensorOf(row) }, async () => void (await write([row])), log)))
      refused.add(sensorOf(row));
  return refused;
}
