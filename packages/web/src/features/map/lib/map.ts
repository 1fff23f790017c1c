/** The map opens over Germany; a highlighted device is shown at zoom 12. */
export const MAP_CENTER: [number, number] = [51.1657, 10.4515];
export const MAP_ZOOM = 6;
export const HIGHLIGHT_ZOOM = 12;

/** The external maps service a popup links to: OpenStreetMap with a marker at the device. */
export function externalMapUrl(lat: number, lng: number): string {
  const la = lat.toFixed(6);
  const ln = lng.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${la}&mlon=${ln}#map=17/${la}/${ln}`;
}

/** `?highlight=12` -> 12; anything that is not a device id -> null. */
export function highlightId(param: string | null): number | null {
  return param && /^\d{1,9}$/.test(param) ? Number(param) : null;
}
