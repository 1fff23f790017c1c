import type { AlarmType, ConfirmationStatus, MessageType } from '@tankportal/shared/devices';
import { SIM_CREDIT_LOW_LIMIT, type NotificationEventName } from '@tankportal/shared/notifications';
import type { HealthKind } from '@tankportal/shared/schemas/tank-health';
import type { ThresholdStatus } from '../sensor-logic/threshold.ts';

/**
 * The events a device's recipients hear of, detected
 * by both ingest paths (record-report.ts, store-batch.ts) with the rules below, so that the two
 * paths notify alike.
 */

/** What a notification names of its device. */
export interface NotifiedDevice {
  id: number;
  name: string;
  /** Inactive devices notify nobody. */
  active: boolean;
}

export interface NoticeSensor {
  sequence: number;
  name: string;
}

/** The sensor of an alarm, with the unit its temperature is measured in. */
export interface AlarmNoticeSensor extends NoticeSensor {
  unit: string;
}

export interface AlarmNotice {
  type: AlarmType;
  /** The sensor of a temperature alarm; null for the device's alarm inputs. */
  sensor: AlarmNoticeSensor | null;
  value: string | null;
  /** Opened by this report (else: still open and reported again). */
  opened: boolean;
}

export interface ThresholdNoticeSensor extends NoticeSensor {
  pct: number;
  value: number | null;
  unit: string;
  threshold: number;
}

export type DeviceEvent =
  | { name: 'alarm'; at: Date; alarms: AlarmNotice[] }
  | { name: 'threshold'; at: Date; status: Exclude<ThresholdStatus, 'ok'>; sensors: ThresholdNoticeSensor[] }
  | { name: 'sim_credit_low'; at: Date; credit: number; currency: string | null; limit: number }
  | { name: 'forward'; at: Date; text: string; from: string | null; via: MessageType }
  | { name: 'forecast'; at: Date; withinDays: number; sensors: ForecastNoticeSensor[] }
  | { name: 'sensor_health'; at: Date; issues: HealthNotice[] }
  | { name: 'order'; at: Date; orders: OrderNotice[] };

/**
 * Who hears of an order's change: the dealer (a new order, a proposal, a customer's cancellation)
 * or the customer (confirmed with its planned date, rejected, cancelled, delivered and measured).
 * A recipient belongs to the dealer's side when its contact is in the contact book of an admin or
 * master other than the device's owner, to the customer's otherwise (outbox.ts).
 */
export type OrderAudience = 'dealer' | 'customer';

/** One order's change as a notification tells it. */
export interface OrderNotice {
  audience: OrderAudience;
  kind: 'requested' | 'proposed' | 'confirmed' | 'rejected' | 'cancelled' | 'closed';
  id: number;
  sensor: NoticeSensor;
  unit: string;
  quantity: number;
  earliest: string;
  latest: string;
  plannedDate: string | null;
  reason: string | null;
  /** Closed: the quantity the tank measured (at 15 °C where known). */
  measured: number | null;
}

/** A health doubt that just arose (intelligence/sensor-checks.ts); sensor null for device-wide ones. */
export interface HealthNotice {
  kind: HealthKind;
  sensor: NoticeSensor | null;
  detail: Record<string, number | string | null>;
}

/** A level sensor whose forecast entered the notice window. */
export interface ForecastNoticeSensor extends NoticeSensor {
  emptyAt: Date;
  value: number | null;
  unit: string;
  perDay: number;
}

export type EventOf<N extends NotificationEventName> = Extract<DeviceEvent, { name: N }>;

/**
 * Whether an alarm (or the threshold notice) with this confirmation notifies when it is reported:
 * unconfirmed and seen go on, disregard stops, and revoked stays silent until a new alarm (a new
 * crossing) opens with no confirmation.
 */
export function confirmationNotifies(confirmation: ConfirmationStatus | null): boolean {
  return confirmation !== 'disregard' && confirmation !== 'revoked';
}

/** An alarm a report opens or keeps open: the notice, or null when its confirmation silences it. */
export function alarmNotice(
  type: AlarmType,
  sensor: (NoticeSensor & { temperatureUnit: string }) | null,
  value: string | null,
  open: { confirmationStatus: ConfirmationStatus | null } | null,
): AlarmNotice | null {
  if (open && !confirmationNotifies(open.confirmationStatus)) return null;
  return {
    type,
    sensor: sensor && { sequence: sensor.sequence, name: sensor.name, unit: sensor.temperatureUnit },
    value,
    opened: !open,
  };
}

interface ThresholdSensorState extends NoticeSensor {
  type: 'probe' | 'counter';
  isConnected: boolean;
  status: string;
  pct: number | null;
  value: number | null;
  unit: string;
  threshold: number | null;
}

/**
 * The threshold event of a report: the device's threshold state is not ok, and either it just
 * left ok (or turned from below to above: a new crossing, whose confirmation starts empty) or it
 * stays crossed and its confirmation lets notifications go on.
 */
export function thresholdEvent(
  before: { thresholdStatus: ThresholdStatus; thresholdConfirmationStatus: ConfirmationStatus | null },
  status: ThresholdStatus,
  sensors: ThresholdSensorState[],
  at: Date,
): EventOf<'threshold'> | null {
  if (status === 'ok') return null;
  if (status === before.thresholdStatus && !confirmationNotifies(before.thresholdConfirmationStatus))
    return null;
  const crossed = sensors.filter(
    (s) =>
      s.type === 'probe' &&
      s.isConnected &&
      s.status !== 'error' &&
      s.pct !== null &&
      s.threshold !== null &&
      (status === 'below' ? s.pct < s.threshold : s.pct > s.threshold),
  );
  return {
    name: 'threshold',
    at,
    status,
    sensors: crossed.map((s) => ({
      sequence: s.sequence,
      name: s.name,
      pct: s.pct!,
      value: s.value,
      unit: s.unit,
      threshold: s.threshold!,
    })),
  };
}

/** The SIM credit falls below SIM_CREDIT_LOW_LIMIT with this report (see the constant). */
export function simCreditEvent(
  previous: number | null,
  credit: number | undefined,
  currency: string | null,
  at: Date,
): EventOf<'sim_credit_low'> | null {
  if (credit === undefined || credit >= SIM_CREDIT_LOW_LIMIT) return null;
  if (previous !== null && previous < SIM_CREDIT_LOW_LIMIT) return null;
  return { name: 'sim_credit_low', at, credit, currency, limit: SIM_CREDIT_LOW_LIMIT };
}
