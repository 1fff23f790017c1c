import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * Per-device, per-user display settings of the process and consumption pages,
 * stored through `GET/PUT /v2/config` with obj `device_user`.
 */
export interface DeviceDisplaySettings {
  'ui.process.defaultTimePeriod': 0 | 1 | 2 | 3 | null;
  'ui.process.excludedSensors': number[] | null;
  'ui.process.showTemperatureCurve': boolean | null;
  'ui.consumption.excludedSensors': number[] | null;
  'ui.consumption.excludedYears': number[] | null;
}
export type DeviceDisplaySettingKey = keyof DeviceDisplaySettings;

const KEYS: DeviceDisplaySettingKey[] = [
  'ui.process.defaultTimePeriod',
  'ui.process.excludedSensors',
  'ui.process.showTemperatureCurve',
  'ui.consumption.excludedSensors',
  'ui.consumption.excludedYears',
];

const EMPTY: DeviceDisplaySettings = {
  'ui.process.defaultTimePeriod': null,
  'ui.process.excludedSensors': null,
  'ui.process.showTemperatureCurve': null,
  'ui.consumption.excludedSensors': null,
  'ui.consumption.excludedYears': null,
};

interface ConfigItem {
  obj: 'device_user';
  id: number;
  key: string;
  value: unknown;
}

const settingsKey = (deviceId: number) => ['config', 'device_user', deviceId] as const;

// `params[]` is written by hand: the client's snake_case conversion would drop the brackets.
const configPath = (deviceId: number) =>
  `/v2/config?${KEYS.map((key) => `params[]=${encodeURIComponent(`device_user:${deviceId}:${key}`)}`).join('&')}`;

function toSettings(items: ConfigItem[]): DeviceDisplaySettings {
  const settings = { ...EMPTY };
  for (const item of items) {
    if (KEYS.includes(item.key as DeviceDisplaySettingKey))
      (settings as Record<string, unknown>)[item.key] = item.value;
  }
  return settings;
}

/**
 * The settings of this device for the signed-in user. With `persist` off (demo accounts, which
 * may change nothing) they live in the page's state only: nothing is loaded, nothing saved.
 * A failed load counts as "nothing saved" (swallowed); a failed save keeps the
 * choice on the page.
 */
export function useDeviceDisplaySettings(deviceId: number, persist: boolean) {
  const queryClient = useQueryClient();
  const loaded = useQuery({
    queryKey: settingsKey(deviceId),
    queryFn: ({ signal }) =>
      api<ConfigItem[]>('GET', configPath(deviceId), { signal })
        .then(toSettings)
        .catch(() => EMPTY),
    enabled: persist,
    staleTime: Infinity,
  });
  const [changed, setChanged] = useState<Partial<DeviceDisplaySettings>>({});
  const save = useMutation({
    mutationFn: (item: { key: DeviceDisplaySettingKey; value: unknown }) =>
      api<ConfigItem[]>('PUT', '/v2/config', { body: [{ obj: 'device_user', id: deviceId, ...item }] }),
    // The choice stays on the page; a failure to keep it is not told.
    meta: { errorToast: false },
    onSuccess: (items) =>
      queryClient.setQueryData<DeviceDisplaySettings>(settingsKey(deviceId), (old) => ({
        ...(old ?? EMPTY),
        ...toSettings(items),
      })),
  });

  const settings: DeviceDisplaySettings = { ...EMPTY, ...(persist ? loaded.data : undefined), ...changed };
  const update = <Key extends DeviceDisplaySettingKey>(key: Key, value: DeviceDisplaySettings[Key]) => {
    setChanged((current) => ({ ...current, [key]: value }));
    if (persist) save.mutate({ key, value });
  };
  return { settings, ready: !persist || !loaded.isPending, update };
}
