import { describe, expect, it } from 'vitest';
import type { ConsumptionRow } from '../../../api/consumption.ts';
import {
  averagePerDay,
  consumptionByUnit,
  consumptionSensors,
  consumptionYears,
} from './consumption-data.ts';

const sensors = [
  { id: 1, sequence: 1, name: 'Wasser', unit: 'l' },
  { id: 2, sequence: 2, name: 'Wasserzähler', unit: 'cbm' },
  { id: 3, sequence: 3, name: 'Zweittank', unit: 'l' },
  { id: 4, sequence: 4, name: 'Ohne Daten', unit: 'l' },
];

const rows: ConsumptionRow[] = [
  {
    year: 2025,
    month: 2,
    data: [
      { sensorId: 1, consumption: 100 },
      { sensorId: 3, consumption: 50 },
    ],
  },
  {
    year: 2025,
    month: 1,
    data: [
      { sensorId: 1, consumption: 120 },
      { sensorId: 2, consumption: 4.5 },
    ],
  },
  { year: 2024, month: 12, data: [{ sensorId: 1, consumption: 130 }] },
];

describe('consumption data', () => {
  it('lists years and the sensors that have consumption', () => {
    expect(consumptionYears(rows)).toEqual([2024, 2025]);
    expect(consumptionSensors(rows, sensors).map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('sums the included sensors per unit, month and year', () => {
    const groups = consumptionByUnit(rows, sensors, [], []);
    expect(groups.map((g) => g.unit)).toEqual(['l', 'cbm']);
    const litres = groups[0].years;
    expect(litres.map((y) => y.year)).toEqual([2024, 2025]);
    expect(litres[1].months.slice(0, 3)).toEqual([120, 150, null]);
    expect(litres[1].total).toBe(270);
    expect(litres[0].months[11]).toBe(130);
    expect(groups[1].years[0].months[0]).toBe(4.5);
  });

  it('keeps different contents apart, and sums tanks of the same content', () => {
    const tanks = [
      { id: 1, sequence: 1, name: 'Diesel', unit: 'l', contentType: 'diesel' },
      { id: 3, sequence: 3, name: 'AdBlue', unit: 'l', contentType: 'adblue' },
      { id: 4, sequence: 4, name: 'Diesel 2', unit: 'l', contentType: 'diesel' },
    ];
    const month = (data: { sensorId: number; consumption: number }[]): ConsumptionRow[] => [
      { year: 2025, month: 2, data },
    ];
    const groups = consumptionByUnit(
      month([
        { sensorId: 1, consumption: 100 },
        { sensorId: 3, consumption: 50 },
        { sensorId: 4, consumption: 20 },
      ]),
      tanks,
      [],
      [],
    );
    expect(groups.map((group) => [group.key, group.contentType, group.years[0].months[1]])).toEqual([
      ['l-diesel', 'diesel', 120],
      ['l-adblue', 'adblue', 50],
    ]);
  });

  it('leaves out excluded sensors and years', () => {
    const groups = consumptionByUnit(rows, sensors, [2, 3], [2024]);
    expect(groups).toHaveLength(1);
    expect(groups[0].years.map((y) => y.year)).toEqual([2025]);
    expect(groups[0].years[0].months.slice(0, 2)).toEqual([120, 100]);
  });

  it('averages per day of the month, the running month up to today', () => {
    expect(averagePerDay(280, 2025, 2, new Date(2025, 5, 1))).toBe(10);
    expect(averagePerDay(310, 2024, 12, new Date(2025, 5, 1))).toBe(10);
    expect(averagePerDay(100, 2025, 6, new Date(2025, 5, 10))).toBe(10);
  });
});
