import type { ThresholdSensorMode } from '@tankportal/shared/devices';

export type ThresholdStatus = 'ok' | 'below' | 'above';

interface ThresholdSensor {
  sequence: number;
  type: 'probe' | 'counter';
  isConnected: boolean;
  status: string;
  pct: number | null;
  threshold: number | null;
}

/**
 * Threshold state of a device by its threshold sensor mode:
 * first / all: the first / every connected level sensor is below its threshold (low level);
 * first_upper / all_upper: the first / every one is above it (e.g. a waste-oil tank filling up).
 * Sensors in error or without a threshold or value do not decide anything.
 */
export function thresholdState(mode: ThresholdSensorMode, sensors: ThresholdSensor[]): ThresholdStatus {
  const deciding = sensors
    .filter(
      (s) =>
        s.type === 'probe' && s.isConnected && s.status !== 'error' && s.pct !== null && s.threshold !== null,
    )
    .sort((a, b) => a.sequence - b.sequence);
  if (deciding.length === 0) return 'ok';
  const upper = mode === 'first_upper' || mode === 'all_upper';
  const crossed = (s: ThresholdSensor) => (upper ? s.pct! > s.threshold! : s.pct! < s.threshold!);
  const candidates = mode === 'first' || mode === 'first_upper' ? deciding.slice(0, 1) : deciding;
  if (!candidates.every(crossed)) return 'ok';
  return upper ? 'above' : 'below';
}
