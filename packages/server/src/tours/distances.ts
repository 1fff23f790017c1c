/**
 * Distances between the depot and the stops of a tour plan: a square matrix in metres, index 0 the
 * depot. Road distances come from a routing service (channels/routing-service.ts); without one, or
 * when it fails, the great-circle distance times a road factor stands in for them.
 */
export interface Location {
  lat: number;
  lng: number;
}

/** A square matrix of distances in metres, row-major; need not be symmetric (one-way streets). */
export interface DistanceMatrix {
  size: number;
  values: Float64Array;
}

/** How much longer a road is than the straight line, on average over rural Germany. */
export const ROAD_FACTOR = 1.3;

const EARTH_RADIUS_M = 6_371_008.8;

/** The great-circle (haversine) distance in metres. */
export function greatCircleMetres(a: Location, b: Location): number {
  const toRadians = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRadians;
  const dLng = (b.lng - a.lng) * toRadians;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * toRadians) * Math.cos(b.lat * toRadians) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The matrix of great-circle distances times the road factor between the given places. */
export function greatCircleMatrix(places: readonly Location[], roadFactor = ROAD_FACTOR): DistanceMatrix {
  const size = places.length;
  const values = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const metres = greatCircleMetres(places[i], places[j]) * roadFactor;
      values[i * size + j] = metres;
      values[j * size + i] = metres;
    }
  }
  return { size, values };
}

/** A matrix from rows (e.g. a routing service's answer). */
export function matrixFromRows(rows: readonly (readonly number[])[]): DistanceMatrix {
  const size = rows.length;
  const values = new Float64Array(size * size);
  rows.forEach((row, i) => {
    if (row.length !== size) throw new Error(`distance matrix row ${i} has ${row.length} of ${size} entries`);
    values.set(row, i * size);
  });
  return { size, values };
}
