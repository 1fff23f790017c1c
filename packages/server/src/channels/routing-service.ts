import { greatCircleMetres, ROAD_FACTOR, type DistanceMatrix, type Location } from '../tours/distances.ts';

/**
 * Road distances from an OSRM-compatible routing service (`ROUTING_URL`): its table service
 * `GET /table/v1/driving/{lng,lat;…}?annotations=distance`. OSRM refuses tables above its
 * `--max-table-size` (100 by default), so a large matrix is asked in blocks of sources and
 * destinations, each request naming only the places of its two blocks, four requests at a time;
 * 10 s per request and 20 s for the whole table, then it fails.
 */

/** Places per block: a request names at most twice as many, well inside OSRM's default limit. */
export const ROUTING_BLOCK = 50;
const REQUEST_TIMEOUT_MS = 10_000;
/** The whole table: a dealer waits for the proposal. */
const TABLE_TIMEOUT_MS = 20_000;
/** Requests in flight at once. */
const CONCURRENCY = 4;

export class RoutingServiceError extends Error {}

export interface RoadDistances {
  matrix: DistanceMatrix;
  /** Pairs the service found no road between: great-circle distance × road factor instead. */
  estimated: number;
}

interface TableAnswer {
  code?: string;
  message?: string;
  distances?: (number | null)[][];
}

/** The matrix of road distances in metres between the places, asked of the service at `baseUrl`. */
export async function roadDistances(
  baseUrl: string,
  places: readonly Location[],
  {
    block = ROUTING_BLOCK,
    timeoutMs = REQUEST_TIMEOUT_MS,
    tableTimeoutMs = TABLE_TIMEOUT_MS,
  }: { block?: number; timeoutMs?: number; tableTimeoutMs?: number } = {},
): Promise<RoadDistances> {
  const size = places.length;
  const values = new Float64Array(size * size);
  let estimated = 0;
  const blocks: [number, number][] = [];
  for (let from = 0; from < size; from += block)
    for (let to = 0; to < size; to += block) blocks.push([from, to]);
  const failed = new AbortController();
  const table = AbortSignal.any([failed.signal, AbortSignal.timeout(tableTimeoutMs)]);
  let next = 0;
  const worker = async () => {
    while (next < blocks.length && !failed.signal.aborted) {
      const [from, to] = blocks[next++]!;
      const sources = range(from, Math.min(size, from + block));
      const destinations = range(to, Math.min(size, to + block));
      const named = from === to ? sources : [...sources, ...destinations];
      const coordinates = named
        .map((i) => `${places[i].lng.toFixed(6)},${places[i].lat.toFixed(6)}`)
        .join(';');
      const sourceIndexes = sources.map((_, k) => k).join(';');
      const destinationIndexes = destinations.map((_, k) => (from === to ? k : sources.length + k)).join(';');
      const url =
        `${baseUrl}/table/v1/driving/${coordinates}?annotations=distance` +
        `&sources=${sourceIndexes}&destinations=${destinationIndexes}`;
      const signal = AbortSignal.any([table, AbortSignal.timeout(timeoutMs)]);
      const rows = await askTable(url, signal, sources.length, destinations.length);
      sources.forEach((i, row) =>
        destinations.forEach((j, column) => {
          const metres = rows[row][column];
          if (i === j) return;
          if (metres === null) {
            estimated++;
            values[i * size + j] = greatCircleMetres(places[i], places[j]) * ROAD_FACTOR;
          } else values[i * size + j] = metres;
        }),
      );
    }
  };
  // The first failure fails the table and stops the other requests.
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, blocks.length) }, () =>
      worker().catch((error: unknown) => {
        failed.abort();
        throw error;
      }),
    ),
  );
  return { matrix: { size, values }, estimated };
}

async function askTable(url: string, signal: AbortSignal, rows: number, columns: number) {
  let answer: TableAnswer;
  try {
    const response = await fetch(url, {
      signal,
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as TableAnswer;
      throw new RoutingServiceError(
        `answered ${response.status}${body.code ? ` ${body.code}` : ''}${body.message ? `: ${body.message}` : ''}`,
      );
    }
    answer = (await response.json()) as TableAnswer;
  } catch (error) {
    if (error instanceof RoutingServiceError) throw error;
    throw new RoutingServiceError(`not reached: ${(error as Error).message}`);
  }
  const distances = answer.distances;
  if (
    answer.code !== 'Ok' ||
    !Array.isArray(distances) ||
    distances.length !== rows ||
    distances.some(
      (row) =>
        !Array.isArray(row) ||
        row.length !== columns ||
        row.some(
          (value) => value !== null && (typeof value !== 'number' || !Number.isFinite(value) || value < 0),
        ),
    )
  )
    throw new RoutingServiceError(`answered no distance table (code ${String(answer.code)})`);
  return distances;
}

const range = (start: number, end: number) => Array.from({ length: end - start }, (_, k) => start + k);
