import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { sendSms } from '../channels/sms-gateways.ts';
import type { FieldError } from '@tankportal/shared/field-errors';
import {
  formatConfigurationSms,
  type ConfigurationCommandV1,
  type DeviceConfigurationV1,
} from '@tankportal/shared/protocols/config-sms';
import {
  IOT_FIELDS,
  MASTER_ONLY_FIELDS,
  type ConfigurationBody,
  type ConfigurationDeliveryChannel,
  type ConfigurationDeliveryFailure,
  type ConfigurationDeliveryStatus,
  type SmsGatewayType,
} from '@tankportal/shared/schemas/device-configuration';
import type { Db } from '../db/client.ts';
import { devices, messages, sensors, smsGateways } from '../db/schema.ts';
import { ChannelUnavailableError, type DeviceChannels } from '../channels/device-channels.ts';
import type { DeviceDirectory } from '../repositories/device-directory.ts';
import { commandTopic } from '../channels/mqtt-topics.ts';
import { invalidFields } from '../http-error.ts';
import type { DeviceRow, SensorRow } from '../repositories/devices.ts';
import { outboundAddress } from './outbound-gateway.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';

export type ConfigurationChange = Partial<ConfigurationBody>;

/** Body fields stored in a device column of the same name. */
const DEVICE_COLUMNS = [
  'thresholdSensor',
  'valueInterval',
  'timeInterval',
  'thresholdInterval',
  'fillingRecognitionInterval',
  'hardwareVersion',
  'smsHeader',
  'forceSms',
  'watchdogEnabled',
  'inboundGatewayId',
  'outboundGatewayId',
  'simCreditorId',
  'iccid',
  'host',
  'port',
  'thingName',
] as const satisfies readonly (keyof ConfigurationBody & keyof DeviceRow)[];

/** Columns that cannot be empty: a null there keeps the stored value. */
const NOT_NULL_COLUMNS = new Set<string>(['fillingRecognitionInterval', 'forceSms', 'watchdogEnabled']);

/** Body fields kept in the device's settings document (`iot_config`). */
const DOCUMENT_KEYS = [
  'timezone',
  // The thing name is a column (the device's MQTT ident), not a setting.
  ...IOT_FIELDS.filter((key): key is Exclude<typeof key, 'thingName'> => key !== 'thingName'),
] as const satisfies readonly (keyof ConfigurationBody)[];

/** A non-master cannot change master-only fields (checked before): they are not written at all. */
export function withoutMasterFields(change: ConfigurationChange): ConfigurationChange {
  const kept = { ...change };
  for (const name of MASTER_ONLY_FIELDS) delete kept[name];
  return kept;
}

/**
 * What the database must confirm: the gateways exist and are of the device's provider; an ICCID or
 * thing name is not another device's (400 conflict naming it, as at creation).
 */
export async function checkConfigurationReferences(
  db: Db,
  device: DeviceRow,
  change: ConfigurationChange,
  smsGatewayType: SmsGatewayType | null,
) {
  const errors: FieldError[] = [];
  for (const path of ['inboundGatewayId', 'outboundGatewayId'] as const) {
    const id = change[path];
    if (id == null || id === device[path]) continue;
    const [gateway] = await db
      .select({ provider: smsGateways.provider })
      .from(smsGateways)
      .where(eq(smsGateways.id, id));
    if (!gateway) errors.push({ path, code: 'invalid', args: {} });
    else if (smsGatewayType && gateway.provider !== smsGatewayType)
      errors.push({ path, code: 'invalid', args: { reason: 'provider' } });
  }
  for (const path of ['iccid', 'thingName'] as const) {
    const value = change[path];
    if (value == null || value === device[path]) continue;
    const [used] = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices[path], value), ne(devices.id, device.id)))
      .limit(1);
    if (used) errors.push({ path, code: 'conflict', args: { deviceId: used.id } });
  }
  if (errors.length) throw invalidFields(errors);
}

function sensorValues(sensor: ConfigurationBody['sensors'][number]) {
  return {
    name: sensor.name ?? '',
    type: sensor.subType === 'counter' ? ('counter' as const) : ('probe' as const),
    subType: sensor.subType,
    contentType: sensor.contentType ?? null,
    capacity: sensor.capacity ?? null,
    unit: sensor.unit,
    isConnected: sensor.isConnected,
    temperatureLimitType: sensor.temperatureLimitType ?? null,
    temperatureLimitValue: sensor.temperatureLimitValue ?? null,
    measuringRange: sensor.measuringRange ?? null,
    contentDensity: sensor.contentDensity ?? null,
    fillLimit: sensor.fillLimit ?? null,
    fillHeight: sensor.fillHeight ?? null,
    fillHeightMm: sensor.fillHeightMm ?? null,
    groundClearance: sensor.groundClearance ?? null,
    geometry: sensor.geometry ?? null,
    threshold: sensor.threshold ?? null,
  };
}

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' ||
  (error as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * Saves a (validated) configuration in one transaction: the device's columns and settings
 * document, and its sensors by sequence (list index + 1): existing ones updated, new ones
 * inserted, those beyond the list removed with their data. An absent device field keeps its
 * value; a sensor is sent whole (an absent sensor value is none). `directory` is the ingest's
 * lookup of senders, which forgets an ident the device gave up.
 */
export async function saveConfiguration(
  db: Db,
  directory: DeviceDirectory,
  device: DeviceRow,
  change: ConfigurationChange,
  recorded: { author: ChangeAuthor; before: Partial<ConfigurationBody> },
) {
  const columns: Record<string, unknown> = {};
  for (const name of DEVICE_COLUMNS) {
    const value = change[name];
    if (value === undefined || (value === null && NOT_NULL_COLUMNS.has(name))) continue;
    columns[name] = value;
  }
  const document = { ...device.iotConfig };
  for (const key of DOCUMENT_KEYS) if (change[key] !== undefined) document[key] = change[key];
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(devices)
        .set({ ...columns, iotConfig: document })
        .where(eq(devices.id, device.id));
      // A sensor list sent whole replaces the device's; none sent keeps them.
      const list = change.sensors;
      if (list) {
        const existing = new Set(
          (
            await tx
              .select({ sequence: sensors.sequence })
              .from(sensors)
              .where(eq(sensors.deviceId, device.id))
          ).map((row) => row.sequence),
        );
        for (const [index, sensor] of list.entries()) {
          const sequence = index + 1;
          const values = sensorValues(sensor);
          if (existing.has(sequence))
            await tx
              .update(sensors)
              .set(values)
              .where(and(eq(sensors.deviceId, device.id), eq(sensors.sequence, sequence)));
          else await tx.insert(sensors).values({ ...values, deviceId: device.id, sequence });
        }
        await tx
          .delete(sensors)
          .where(and(eq(sensors.deviceId, device.id), gt(sensors.sequence, list.length)));
      }
      await recordChange(tx, recorded.author, {
        entityType: 'device',
        entityId: device.id,
        deviceId: device.id,
        action: 'update_configuration',
        changes: changedFields(recorded.before, change),
      });
    });
  } catch (error) {
    // Taken by another device between the check and the write.
    if (isUniqueViolation(error))
      throw invalidFields([
        { path: change.thingName !== undefined ? 'thingName' : 'iccid', code: 'conflict', args: {} },
      ]);
    throw error;
  }
  // The ingest's lookup cache must not keep answering to an ident the device gave up.
  if (change.iccid !== undefined || change.thingName !== undefined) directory.forget(device.id);
}

const documentValue = <T>(device: DeviceRow, key: string, fallback: T): T =>
  (device.iotConfig[key] as T | undefined) ?? fallback;

/** What the device is sent: its stored configuration, without the portal's own data. */
export function deviceConfigurationOf(device: DeviceRow, sensorRows: SensorRow[]): DeviceConfigurationV1 {
  const configuration: DeviceConfigurationV1 = {
    sensors: [...sensorRows]
      .sort((a, b) => a.sequence - b.sequence)
      .map((sensor) => ({
        sequence: sensor.sequence,
        subType: sensor.subType,
        isConnected: sensor.isConnected,
        unit: sensor.unit,
        capacity: sensor.capacity,
        fillLimit: sensor.fillLimit,
        threshold: sensor.threshold,
        temperatureLimitType: sensor.temperatureLimitType,
        temperatureLimitValue: sensor.temperatureLimitValue,
        measuringRange: sensor.measuringRange,
        contentDensity: sensor.contentDensity,
        geometry: sensor.geometry,
        fillHeight: sensor.fillHeight,
        fillHeightMm: sensor.fillHeightMm,
        groundClearance: sensor.groundClearance,
      })),
    thresholdSensor: device.thresholdSensor,
    valueInterval: device.valueInterval,
    timeInterval: device.timeInterval,
    thresholdInterval: device.thresholdInterval,
    fillingRecognitionInterval: device.fillingRecognitionInterval,
    timezone: documentValue<string | null>(device, 'timezone', null),
  };
  if (device.type === 'sms')
    Object.assign(configuration, {
      smsHeader: device.smsHeader,
      forceSms: device.forceSms,
      watchdogEnabled: device.watchdogEnabled,
    });
  if (device.type === 'net') Object.assign(configuration, { host: device.host, port: device.port });
  if (device.type === 'iot')
    for (const key of DOCUMENT_KEYS)
      if (key !== 'timezone' && key !== 'iotVersion' && device.iotConfig[key] !== undefined)
        Object.assign(configuration, { [key]: device.iotConfig[key] });
  return configuration;
}

type OutgoingMessage = typeof messages.$inferInsert;

async function logMessages(db: Db, rows: OutgoingMessage[]) {
  if (rows.length) await db.insert(messages).values(rows);
}

export interface Delivery {
  /** Configuration SMS handed to the gateway (the `x-sms-sent` header). */
  smsSent: number;
  /** sent: handed over; pending: waits for the device's next report (net); failed: see the messages. */
  status: ConfigurationDeliveryStatus;
  channel: ConfigurationDeliveryChannel;
  /** Why it failed (null unless failed), for the user; the message log has the details. */
  failure: ConfigurationDeliveryFailure | null;
}

/** A channel that is not set up (no gateway API, no broker) is not the same as one that refused. */
const failureOf = (error: unknown): ConfigurationDeliveryFailure =>
  error instanceof ChannelUnavailableError ? 'not_configured' : 'refused';

/**
 * Sends the saved configuration to the device, each send logged as an outgoing message
 * (systemToDevice): SMS devices get the configuration SMS through their outbound gateway, IoT and
 * LX-IoT devices the `configuration` command on their command topic, net devices get it with the
 * answer to their next report. A channel that refuses leaves the messages `sending_failed` with
 * the reason; the configuration stays saved either way. `addressedAs` is the device before the
 * change: an MQTT device still listens under its old client id.
 */
export async function deliverConfiguration(
  db: Db,
  channels: DeviceChannels,
  addressedAs: DeviceRow,
  userId: number,
): Promise<Delivery> {
  const [device] = await db.select().from(devices).where(eq(devices.id, addressedAs.id));
  const sensorRows = await db
    .select()
    .from(sensors)
    .where(eq(sensors.deviceId, device.id))
    .orderBy(asc(sensors.sequence));
  const configuration = deviceConfigurationOf(device, sensorRows);
  const base = { deviceId: device.id, direction: 'out', mode: 'systemToDevice', userId } as const;

  if (device.type === 'sms') return sendConfigurationSms(db, channels, device, configuration, base);

  const command: ConfigurationCommandV1 = { command: 'configuration', version: 1, configuration };
  const content = JSON.stringify(command);
  if (device.type === 'net') {
    await channels.net.queue(device, content, base);
    return { smsSent: 0, status: 'pending', channel: 'net', failure: null };
  }

  const ident = device.type === 'iot' ? addressedAs.thingName : addressedAs.iccid;
  let failure: string | null = ident ? null : 'the device has no client id';
  let reason: ConfigurationDeliveryFailure | null = ident ? null : 'no_address';
  if (ident) {
    try {
      await channels.publish(commandTopic(device.type, ident), content);
    } catch (error) {
      failure = (error as Error).message;
      reason = failureOf(error);
    }
  }
  await logMessages(db, [
    {
      ...base,
      type: device.type,
      status: failure ? 'sending_failed' : 'sent',
      content,
      toIdent: ident,
      toType: device.type === 'iot' ? 'thing_name' : 'iccid',
      report: failure,
      sentAt: failure ? null : new Date(),
    },
  ]);
  return { smsSent: 0, status: reason ? 'failed' : 'sent', channel: 'mqtt', failure: reason };
}

async function sendConfigurationSms(
  db: Db,
  channels: DeviceChannels,
  device: DeviceRow,
  configuration: DeviceConfigurationV1,
  base: Pick<OutgoingMessage, 'deviceId' | 'direction' | 'mode' | 'userId'>,
): Promise<Delivery> {
  const texts = formatConfigurationSms(configuration);
  // The SIM just configured is the one addressed (a corrected ICCID or the gateway chosen now).
  const address = await outboundAddress(db, device);
  let failure: string | null = address.to
    ? null
    : `the device has no ${address.provider === 'lionel' ? 'cell number' : 'ICCID'} for ${address.provider}`;
  let reason: ConfigurationDeliveryFailure | null = address.to ? null : 'no_address';
  const rows: OutgoingMessage[] = [];
  let sent = 0;
  for (const [index, text] of texts.entries()) {
    let report = failure && index > 0 ? `not sent: ${failure}` : failure;
    let gatewayMessageId: string | undefined;
    if (!failure) {
      try {
        ({ report, gatewayMessageId } = await sendSms(channels.smsGateway(address.provider), {
          to: address.to!,
          text,
        }));
        sent += 1;
      } catch (error) {
        // The parts after a refused one are not tried: the gateway would refuse them too.
        failure = `part ${index + 1}: ${(error as Error).message}`;
        reason = failureOf(error);
        report = failure;
      }
    }
    const ok = index < sent;
    rows.push({
      ...base,
      type: 'sms',
      status: ok ? 'gateway' : 'sending_failed',
      content: text,
      toIdent: address.to,
      toType: address.toType,
      gatewayId: address.gatewayId,
      report,
      gatewayMessageId,
      sentAt: ok ? new Date() : null,
    });
  }
  await logMessages(db, rows);
  const complete = sent === texts.length;
  return {
    smsSent: sent,
    status: complete ? 'sent' : 'failed',
    channel: 'sms',
    // Some parts sent, a later one refused: the device has an incomplete configuration.
    failure: complete ? null : (reason ?? 'refused'),
  };
}
