import { describe, expect, it } from 'vitest';
import { findJump, findSilent, findStuck, isLowBattery, reportIntervalSeconds } from './sensor-health.ts';

const DAY = 86_400_000;
const now = new Date(Date.UTC(2026, 10, 20, 12));
/** Daily readings ending today: `used` per day for `usedDays`, then `flatDays` unchanged. */
function daily(used: number, usedDays: number, flatDays: number, level = 4000) {
  const points = [];
  const total = usedDays + flatDays;
  for (let i = 0; i <= total; i++) {
    const day = Math.min(i, usedDays);
    points.push({ at: new Date(now.getTime() - (total - i) * DAY), volume: level - used * day });
  }
  return points;
}

describe('findStuck', () => {
  it('finds a sensor that reports the same value for 7 days while the tank is in use', () => {
    const finding = findStuck(daily(20, 40, 8), 5000);
    expect(finding).toMatchObject({ value: 4000 - 20 * 40, days: 8 });
    expect(finding!.since).toEqual(new Date(now.getTime() - 8 * DAY));
  });

  it('leaves a tank alone that was idle before (summer heating)', () => {
    expect(findStuck(daily(1, 40, 10), 5000)).toBeNull();
  });

  it('needs 7 days of the same value', () => {
    expect(findStuck(daily(20, 40, 6), 5000)).toBeNull();
  });

  it('counts tiny measuring noise as the same value', () => {
    const points = daily(20, 40, 9);
    for (let i = points.length - 9; i < points.length; i++) points[i].volume += i % 2 ? 3 : -3;
    expect(findStuck(points, 5000)).not.toBeNull();
  });

  it('needs history to judge the use by', () => {
    expect(findStuck(daily(20, 5, 8), 5000)).toBeNull();
  });
});

describe('findJump', () => {
  it('finds a reading far from both neighbours that agree', () => {
    const points = daily(10, 20, 0);
    points[18].volume -= 1200;
    const jump = findJump(points, 5000, now);
    expect(jump).toMatchObject({ at: points[18].at, value: points[18].volume });
    expect(jump!.from).toBeCloseTo((points[17].volume + points[19].volume) / 2);
  });

  it('does not take a refill or a steady fall for a jump', () => {
    const points = daily(10, 20, 0);
    for (let i = 15; i < points.length; i++) points[i].volume += 2500;
    expect(findJump(points, 5000, now)).toBeNull();
    expect(findJump(daily(300, 12, 0), 5000, now)).toBeNull();
  });

  it('forgets a jump older than 7 days', () => {
    const points = daily(10, 20, 0);
    points[8].volume += 1500;
    expect(findJump(points, 5000, now)).toBeNull();
  });
});

describe('findSilent', () => {
  const last = new Date(now.getTime() - 50 * 3_600_000);
  it('finds a device that missed twice its report interval', () => {
    expect(findSilent(last, 86_400, now)).toEqual({
      since: new Date(last.getTime() + 2 * DAY),
      lastReportedAt: last,
      intervalHours: 24,
    });
    expect(findSilent(last, 2 * 86_400, now)).toBeNull();
    expect(findSilent(null, 86_400, now)).toBeNull();
    expect(findSilent(last, null, now)).toBeNull();
  });

  it('takes the IoT send interval where the device has one', () => {
    expect(
      reportIntervalSeconds({ type: 'iot', timeInterval: 86_400, iotConfig: { iotSendInterval: 360 } }),
    ).toBe(21_600);
    expect(reportIntervalSeconds({ type: 'sms', timeInterval: 43_200, iotConfig: {} })).toBe(43_200);
    expect(reportIntervalSeconds({ type: 'sms', timeInterval: 0, iotConfig: {} })).toBeNull();
  });
});

describe('isLowBattery', () => {
  it('is below 20 %', () => {
    expect(isLowBattery(19)).toBe(true);
    expect(isLowBattery(20)).toBe(false);
    expect(isLowBattery(null)).toBe(false);
  });
});
