import { describe, expect, it } from 'vitest';
import {
  addressLines,
  daysOf,
  DEFAULT_DISPATCH_HORIZON,
  deliveryDayOf,
  deliveryDayRange,
  groupByPostalCode,
  horizonOf,
  orderTotals,
  type DispatchRowView,
} from './dispatch.ts';

function row(
  deviceId: number,
  postalCode: string | null,
  orderQuantity: number | null,
  unit = 'l',
  city: string | null = 'Musterstadt',
): DispatchRowView {
  return {
    deviceId,
    deviceName: `Tank ${deviceId}`,
    username: 'user',
    address: { street: 'Hauptstraße', streetNumber: '1', postalCode, city, countryCode: 'DE' },
    sensorId: deviceId * 10,
    sequence: 1,
    sensorName: 'Heizöl',
    contentType: 'heating_oil',
    unit,
    capacity: 5000,
    level: 500,
    fillLimit: 95,
    threshold: 20,
    orderQuantity,
    orderQuantityOnDelivery: orderQuantity === null ? null : orderQuantity + 1000,
    emptyAt: '2030-01-10T00:00:00.000Z',
    emptyAtLow: '2030-01-08T00:00:00.000Z',
    reorderAt: null,
    forecastDoubts: [],
    health: [],
  };
}

describe('horizonOf', () => {
  it('takes a whole number of days 1..365 and falls back to the default otherwise', () => {
    expect(horizonOf('30')).toBe(30);
    expect(horizonOf('365')).toBe(365);
    expect(horizonOf('1')).toBe(1);
    expect(horizonOf('45')).toBe(45);
    for (const value of [null, '', '0', '366', '-7', '7.5', 'abc', '1e2'])
      expect(horizonOf(value), String(value)).toBe(DEFAULT_DISPATCH_HORIZON);
  });
});

describe('daysOf', () => {
  it('takes what a user types as a number of days only when it is a whole number 1..365', () => {
    expect(daysOf(' 45 ')).toBe(45);
    expect(daysOf('365')).toBe(365);
    for (const value of ['', '0', '366', '-7', '7,5', 'zwei', '1e2']) expect(daysOf(value), value).toBeNull();
  });
});

describe('deliveryDayOf', () => {
  it("takes a real day from today to 365 days ahead, otherwise none (the horizon's end)", () => {
    const today = '2026-11-28';
    expect(deliveryDayRange(today)).toEqual({ min: '2026-11-28', max: '2027-11-28' });
    expect(deliveryDayOf('2026-11-28', today)).toBe('2026-11-28');
    expect(deliveryDayOf('2027-11-28', today)).toBe('2027-11-28');
    for (const value of [null, '', '2026-11-27', '2027-11-29', '2027-02-30', '28.11.2026'])
      expect(deliveryDayOf(value, today), String(value)).toBeNull();
  });
});

describe('orderTotals', () => {
  it('sums per unit in order of appearance and skips rows without a quantity', () => {
    expect(
      orderTotals([row(1, '1', 100), row(2, '1', 50, 'kg'), row(3, '1', null), row(4, '1', 25)]),
    ).toEqual([
      { unit: 'l', total: 125 },
      { unit: 'kg', total: 50 },
    ]);
    expect(orderTotals([row(1, '1', null)])).toEqual([]);
    expect(orderTotals([row(1, '1', 100), row(2, '1', 50)], 'orderQuantityOnDelivery')).toEqual([
      { unit: 'l', total: 2150 },
    ]);
  });
});

describe('groupByPostalCode', () => {
  it('groups by postal code in the order of the rows, the rows without one last', () => {
    const rows = [row(1, null, 10), row(2, '10115', 100), row(3, '10115', 200), row(4, '80331', 5, 'kg')];
    const groups = groupByPostalCode(rows);
    expect(groups.map((group) => group.postalCode)).toEqual(['10115', '80331', null]);
    expect(groups[0]!.rows.map((r) => r.deviceId)).toEqual([2, 3]);
    expect(groups[0]!.totals).toEqual([{ unit: 'l', total: 300 }]);
    expect(groups[0]!.deliveryTotals).toEqual([{ unit: 'l', total: 2300 }]);
    expect(groups[1]!.totals).toEqual([{ unit: 'kg', total: 5 }]);
    expect(groups[2]!.rows.map((r) => r.deviceId)).toEqual([1]);
  });

  it('treats a blank postal code as none and takes the first city named', () => {
    const groups = groupByPostalCode([
      row(1, '  ', 1),
      row(2, '10115', 1, 'l', null),
      row(3, '10115', 1, 'l', 'Berlin'),
    ]);
    expect(groups.map((group) => [group.postalCode, group.city])).toEqual([
      ['10115', 'Berlin'],
      [null, 'Musterstadt'],
    ]);
  });

  it('gives no groups for no rows', () => {
    expect(groupByPostalCode([])).toEqual([]);
  });
});

describe('addressLines', () => {
  it('leaves out what is missing', () => {
    expect(
      addressLines({
        street: 'Hauptstraße',
        streetNumber: '1',
        postalCode: '10115',
        city: 'Berlin',
        countryCode: 'DE',
      }),
    ).toEqual(['Hauptstraße 1', '10115 Berlin']);
    expect(
      addressLines({ street: null, streetNumber: null, postalCode: null, city: 'Berlin', countryCode: null }),
    ).toEqual(['Berlin']);
    expect(
      addressLines({ street: null, streetNumber: null, postalCode: null, city: null, countryCode: null }),
    ).toEqual([]);
  });
});
