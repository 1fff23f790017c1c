import type {
  DeviceDetail,
  DeviceMapEntry,
  DeviceSummary,
  SensorForecast,
} from '@tankportal/shared/schemas/devices';
import { READING_DOUBTS, type HealthIssue, type ReadingDoubt } from '@tankportal/shared/schemas/tank-health';
import { identOf } from '../db/device-ident.ts';
import type { DevicePermissions } from '../policies/device-access.ts';
import type {
  AlarmRow,
  DeviceRow,
  HealthIssueRow,
  ListedDeviceRow,
  MapDeviceRow,
  OwnerRow,
  SensorForecastRow,
  SensorRow,
} from '../repositories/devices.ts';
import { presentAlarm } from './alarm.ts';
import { displayName } from './current-user.ts';

/** A device's postal address as the API answers it. */
export function presentAddress(
  device: Pick<DeviceRow, 'street' | 'streetNumber' | 'postalCode' | 'city' | 'countryCode'>,
) {
  return {
    street: device.street,
    streetNumber: device.streetNumber,
    postalCode: device.postalCode,
    city: device.city,
    countryCode: device.countryCode,
  };
}

/**
 * The kept forecast with the open doubts about the readings it rests on. The doubts are joined
 * here, when the forecast is read, not when it is made: the checks that open and close them run
 * after the forecasts.
 */
export function presentForecast(
  row: SensorForecastRow | null,
  doubts: readonly ReadingDoubt[] = [],
): SensorForecast | null {
  if (!row?.emptyAt || !row.emptyAtLow || !row.emptyAtHigh || row.perDay === null) return null;
  return {
    emptyAt: row.emptyAt,
    reorderAt: row.reorderAt,
    emptyAtLow: row.emptyAtLow,
    emptyAtHigh: row.emptyAtHigh,
    perDay: row.perDay,
    errorDays: row.errorDays,
    errorHorizonDays: row.errorDays === null ? null : row.errorHorizonDays,
    doubts: [...doubts],
  };
}

/** The kinds of the open doubts about one sensor's readings, each once. */
export function readingDoubtsOf(
  health: readonly Pick<HealthIssueRow, 'kind' | 'sensorId'>[],
  sensorId: number,
): ReadingDoubt[] {
  return READING_DOUBTS.filter((kind) =>
    health.some((issue) => issue.sensorId === sensorId && issue.kind === kind),
  );
}

export function presentSensor(
  sensor: SensorRow & { forecast?: SensorForecastRow | null },
  health: readonly HealthIssueRow[] = [],
) {
  const { deviceId: _deviceId, forecast, ...fields } = sensor;
  return {
    ...fields,
    forecast: presentForecast(forecast ?? null, readingDoubtsOf(health, sensor.id)),
  };
}

export function presentHealthIssue(issue: HealthIssueRow): HealthIssue {
  return { kind: issue.kind, sequence: issue.sequence, since: issue.openedAt, detail: issue.detail };
}

export function presentDeviceSummary(
  device: ListedDeviceRow,
  owner: OwnerRow,
  sensors: SensorRow[],
  access: DevicePermissions,
  health: HealthIssueRow[],
): DeviceSummary {
  return {
    id: device.id,
    type: device.type,
    ident: identOf(device),
    identType: device.identType,
    name: device.name,
    project: device.project,
    address: presentAddress(device),
    user: { id: owner.id, username: owner.username, name: displayName(owner) },
    status: device.status,
    active: device.active,
    lastReportedAt: device.lastReportedAt,
    simCreditQty: device.simCreditQty,
    simCreditCurrency: device.simCreditCurrency,
    location:
      device.locationLat !== null && device.locationLng !== null
        ? { lat: device.locationLat, lng: device.locationLng, updatedAt: device.locationUpdatedAt }
        : null,
    permissions: access.permissions,
    sensors: sensors.map((sensor) => presentSensor(sensor, health)),
    health: health.map(presentHealthIssue),
  };
}

/** A device as the map draws it: marker, popup (name, address, owner, status) and its link. */
export function presentDeviceMapEntry(row: MapDeviceRow): DeviceMapEntry {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    active: row.active,
    address: {
      street: row.street,
      streetNumber: row.streetNumber,
      postalCode: row.postalCode,
      city: row.city,
    },
    user: { name: displayName(row.owner) },
    location: { lat: row.lat, lng: row.lng },
  };
}

export function presentDeviceDetail(
  device: DeviceRow,
  owner: OwnerRow,
  sensors: SensorRow[],
  alarms: AlarmRow[],
  access: DevicePermissions,
  showMasterFields: boolean,
  health: HealthIssueRow[],
): DeviceDetail {
  return {
    ...presentDeviceSummary(device, owner, sensors, access, health),
    userPermissions: access.ace ? { aceId: access.ace.id, permissions: access.ace.permissions } : null,
    alarms: alarms.map(presentAlarm),
    thresholdStatus: device.thresholdStatus,
    thresholdSensor: device.thresholdSensor,
    thresholdConfirmationStatus:
      device.thresholdConfirmationStatus === 'revoked' ? null : device.thresholdConfirmationStatus,
    valueInterval: device.valueInterval,
    timeInterval: device.timeInterval,
    thresholdInterval: device.thresholdInterval,
    fillingRecognitionInterval: device.fillingRecognitionInterval,
    capabilities: device.capabilities,
    comment: device.comment,
    masterComment: showMasterFields ? device.masterComment : null,
    cellNumber: device.cellNumber,
    iccid: device.iccid,
    thingName: device.thingName,
    identCode: device.identCode,
    host: device.host,
    port: device.port,
    firmwareVersion: device.firmwareVersion,
    hardwareVersion: device.hardwareVersion,
    batteryCharge: device.batteryCharge,
    publicUrlAccessEnabled: device.publicUrlAccessEnabled,
    // The web route of the public status page (its data: GET /api/v2/public/devices/{token}).
    publicUrl:
      device.publicUrlAccessEnabled && device.publicUrlToken ? `/public/${device.publicUrlToken}` : null,
    smsHeader: device.smsHeader,
    forceSms: device.forceSms,
    watchdogEnabled: device.watchdogEnabled,
    inboundGatewayId: device.inboundGatewayId,
    outboundGatewayId: device.outboundGatewayId,
    simCreditorId: showMasterFields ? device.simCreditorId : null,
    simProvider: device.simProvider,
    simType: device.simType,
    debtor: showMasterFields && device.debtorIdent ? { ident: device.debtorIdent } : null,
    orderNumber: device.orderNumber,
    recipientAddress: device.recipientAddress,
    leitwegId: showMasterFields ? device.leitwegId : null,
    iotConfig: device.iotConfig,
  };
}
