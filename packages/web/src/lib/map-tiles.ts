import { useWhitelabelConfig } from './whitelabel.ts';

/** Used when the server configures no tile service (MAP_TILE_URL). */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** Keys of the map's tile service in `GET /v2/config/whitelabel`. */
export const TILE_URL_KEY = 'ui.map.tileUrl';
export const TILE_ATTRIBUTION_KEY = 'ui.map.tileAttribution';

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/**
 * The tile service every map of the portal draws (the device map, the tour planner's map): the
 * installation's, else OpenStreetMap's. `ready` is false while the configuration loads.
 */
export function useMapTiles(): { ready: boolean; url: string; attribution: string } {
  const config = useWhitelabelConfig(true);
  return {
    ready: !config.isPending,
    url: text(config.data?.[TILE_URL_KEY]) ?? DEFAULT_TILE_URL,
    attribution: text(config.data?.[TILE_ATTRIBUTION_KEY]) ?? DEFAULT_TILE_ATTRIBUTION,
  };
}
