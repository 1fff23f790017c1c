import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client.ts';
import type { AlarmView, StatusSensor } from '../../../lib/api/devices.ts';

/** What the public status page of a device shows, and nothing else. */
export interface PublicDevice {
  name: string;
  type: string;
  address: { postalCode: string | null; city: string | null; countryCode: string };
  status: 'ok' | 'alarm';
  active: boolean;
  lastReportedAt: string | null;
  sensors: StatusSensor[];
  /** As the device page's alarms, without their ids. */
  alarms: Omit<AlarmView, 'id'>[];
}

/** `GET /v2/public/devices/{token}`: no session needed, a 401 never sends anybody to /login. */
export function usePublicDevice(token: string) {
  return useQuery({
    queryKey: ['public-devices', token],
    queryFn: ({ signal }) =>
      api<PublicDevice>('GET', `/v2/public/devices/${encodeURIComponent(token)}`, {
        allowUnauthorized: true,
        signal,
      }),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 1,
  });
}
