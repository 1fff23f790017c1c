import { useQuery } from '@tanstack/react-query';
import { fetchDeviceListPage, type DeviceListItem } from './device-list.ts';

/** The largest page the list API serves. */
const MAP_PAGE_SIZE = 100;
/** Pages asked for at the same time once the total is known: quick, without flooding the server. */
const PARALLEL_PAGES = 4;

/** Just what the map draws. */
export type MapDevice = Pick<DeviceListItem, 'id' | 'name' | 'status' | 'active' | 'address'> & {
  location: { lat: number; lng: number };
};

const toMapDevice = (device: DeviceListItem): MapDevice | null =>
  device.location
    ? {
        id: device.id,
        name: device.name,
        status: device.status,
        active: device.active,
        address: device.address,
        location: { lat: device.location.lat, lng: device.location.lng },
      }
    : null;

/** Every device with a location the actor may see, page by page (`location_enabled_only=true`). */
export async function fetchMapDevices(signal?: AbortSignal): Promise<MapDevice[]> {
  const query = (page: number) => ({
    locationEnabledOnly: true,
    sort: 'id:asc',
    perPage: MAP_PAGE_SIZE,
    page,
  });
  const first = await fetchDeviceListPage(query(1), signal);
  const pageCount = Math.ceil(first.total / MAP_PAGE_SIZE);
  const pages = [first.devices];
  for (let page = 2; page <= pageCount; page += PARALLEL_PAGES) {
    const batch = [];
    for (let next = page; next < page + PARALLEL_PAGES && next <= pageCount; next++)
      batch.push(fetchDeviceListPage(query(next), signal));
    for (const result of await Promise.all(batch)) pages.push(result.devices);
  }
  return pages.flat().flatMap((device) => toMapDevice(device) ?? []);
}

export function useMapDevices() {
  return useQuery({
    queryKey: ['devices', 'map'],
    queryFn: ({ signal }) => fetchMapDevices(signal),
    staleTime: 60_000,
  });
}
