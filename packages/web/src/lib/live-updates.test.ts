import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { deviceKeys } from './api/devices.ts';
import { deviceIdsOf, LiveRefresher } from './live-updates.ts';

/** A client holding the device queries a page might show, each loaded once. */
function clientWithDeviceQueries() {
  const client = new QueryClient();
  const keys = [
    deviceKeys.list({ page: 1 }),
    deviceKeys.map(),
    deviceKeys.detail(5),
    deviceKeys.process(5),
    deviceKeys.detail(6),
    ['users', 'me'],
  ];
  for (const key of keys) client.setQueryData(key, 'loaded');
  const stale = () =>
    keys.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => JSON.stringify(key));
  return { client, stale };
}

afterEach(() => vi.useRealTimers());

describe('live refresher', () => {
  it("refreshes the lists, the map and the reporting device's data, nothing else", async () => {
    vi.useFakeTimers();
    const { client, stale } = clientWithDeviceQueries();
    const refresher = new LiveRefresher(client, () => false);
    refresher.reports([5]);
    await vi.runAllTimersAsync();
    expect(stale()).toEqual([
      JSON.stringify(deviceKeys.list({ page: 1 })),
      JSON.stringify(deviceKeys.map()),
      JSON.stringify(deviceKeys.detail(5)),
      JSON.stringify(deviceKeys.process(5)),
    ]);
  });

  it('waits while the tab is hidden and refreshes on its return', async () => {
    vi.useFakeTimers();
    const { client, stale } = clientWithDeviceQueries();
    let hidden = true;
    const refresher = new LiveRefresher(client, () => hidden);
    refresher.reports([6]);
    await vi.runAllTimersAsync();
    expect(stale()).toEqual([]);
    hidden = false;
    refresher.flush();
    expect(stale()).toContain(JSON.stringify(deviceKeys.detail(6)));
  });

  it('after a resync refreshes everything about devices', async () => {
    vi.useFakeTimers();
    const { client, stale } = clientWithDeviceQueries();
    new LiveRefresher(client, () => false).resync();
    await vi.runAllTimersAsync();
    expect(stale()).toHaveLength(5);
  });

  it('reads only the device ids of an event', () => {
    expect(deviceIdsOf('{"deviceIds":[1,2],"at":"2026-01-01T00:00:00Z"}')).toEqual([1, 2]);
    expect(deviceIdsOf('{"deviceIds":["1",null]}')).toEqual([]);
    expect(deviceIdsOf('not json')).toEqual([]);
  });
});
