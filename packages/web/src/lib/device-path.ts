import { pathId } from './path-id.ts';

// The URLs of one device's pages: the device pages (app/routes) and the features
// that link into them (status, settings tabs, quick navigation) build them the same way.

/** The device id of a route segment, or null when the segment is no device id. */
export const parseDeviceId = pathId;

/** The sub-page of a device path (`/devices/5/process/x` -> `process`), '' for the status page. */
export function devicePageOf(pathname: string, deviceId: number): string {
  const prefix = `/devices/${deviceId}`;
  if (!pathname.startsWith(prefix)) return '';
  return pathname.slice(prefix.length).split('/').find(Boolean) ?? '';
}

export function devicePath(deviceId: number, page = ''): string {
  return page ? `/devices/${deviceId}/${page}` : `/devices/${deviceId}`;
}

/** Which page of the device area a path opens: the list (with its dialogs), one device, or neither. */
export function deviceAreaPageOf(pathname: string): { list: true } | { deviceId: number } | null {
  const [, area, segment] = pathname.split('/');
  if (area !== 'devices') return null;
  const deviceId = segment ? parseDeviceId(segment) : null;
  return deviceId === null ? { list: true } : { deviceId };
}
