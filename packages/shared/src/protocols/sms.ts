/**
 * The measurement SMS, version 1 (docs/protocols.md): fields separated by `;`, at most 160
 * characters of GSM 7-bit text.
 *
 *   TP1;1042;20261122100000;S1=5230.5/12.5;S2=P81.2;S3=E;A=e001+power_failure;C=4.50;B=90;G=51.1657,10.4515
 *
 * `TP1` version · message counter (the message id) · time (UTC, YYYYMMDDhhmmss) · per sensor
 * `S<n>=<value>[/<temperature>]`, `S<n>=P<pressure mbar>[/<temperature>]` or `S<n>=E` (probe error) ·
 * optional `A=` alarm types joined by `+`, `C=` SIM credit, `B=` battery percent, `G=` lat,lng.
 */
export const SMS_VERSION = 'TP1';

export class SmsFormatError extends Error {}

const NUMBER = /^-?\d+(\.\d+)?$/;

function number(text: string, what: string): number {
  if (!NUMBER.test(text)) throw new SmsFormatError(`${what}: "${text}" is not a number`);
  return Number(text);
}

/** Turns the SMS text into the report v1 object (validated afterwards like every other report). */
export function parseMeasurementSms(text: string): Record<string, unknown> {
  const fields = text.trim().split(';');
  if (fields[0] !== SMS_VERSION) throw new SmsFormatError(`unknown format "${fields[0]?.slice(0, 8) ?? ''}"`);
  if (fields.length < 4) throw new SmsFormatError('too few fields');
  const [, counter, time, ...rest] = fields;
  if (!/^\d{1,10}$/.test(counter)) throw new SmsFormatError(`message counter: "${counter}"`);
  const stamp = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(time);
  if (!stamp) throw new SmsFormatError(`time: "${time}"`);
  const [, year, month, day, hour, minute, second] = stamp;
  const report: Record<string, unknown> = {
    messageId: counter,
    measuredAt: `${year}-${month}-${day}T${hour}:${minute}:${second}Z`,
    sensors: [] as unknown[],
  };
  for (const field of rest) {
    const [key, value = ''] = field.split('=', 2);
    const sensor = /^S([1-4])$/.exec(key);
    if (sensor) {
      const sequence = Number(sensor[1]);
      if (value === 'E') {
        (report.sensors as unknown[]).push({ sequence, error: true });
        continue;
      }
      const [reading, temperature] = value.split('/');
      const entry: Record<string, unknown> = { sequence };
      if (reading.startsWith('P')) entry.pressureMbar = number(reading.slice(1), `S${sequence} pressure`);
      else entry.value = number(reading, `S${sequence}`);
      if (temperature !== undefined) entry.temperature = number(temperature, `S${sequence} temperature`);
      (report.sensors as unknown[]).push(entry);
    } else if (key === 'A') {
      report.alarms = value ? value.split('+') : [];
    } else if (key === 'C') {
      report.simCredit = number(value, 'SIM credit');
    } else if (key === 'B') {
      report.battery = number(value, 'battery');
    } else if (key === 'G') {
      const [lat, lng] = value.split(',');
      report.location = { lat: number(lat ?? '', 'latitude'), lng: number(lng ?? '', 'longitude') };
    } else {
      throw new SmsFormatError(`unknown field "${key}"`);
    }
  }
  return report;
}

interface SmsReport {
  messageId: string;
  measuredAt: Date;
  sensors: {
    sequence: number;
    value?: number;
    pressureMbar?: number;
    temperature?: number;
    error?: boolean;
  }[];
  alarms?: string[];
  simCredit?: number;
  battery?: number;
  location?: { lat: number; lng: number };
}

/** The device side of the same format: the simulator sends what this writes. */
export function formatMeasurementSms(report: SmsReport): string {
  const at = report.measuredAt.toISOString();
  const time =
    at.slice(0, 4) +
    at.slice(5, 7) +
    at.slice(8, 10) +
    at.slice(11, 13) +
    at.slice(14, 16) +
    at.slice(17, 19);
  const fields = [SMS_VERSION, report.messageId, time];
  for (const sensor of report.sensors) {
    if (sensor.error) {
      fields.push(`S${sensor.sequence}=E`);
      continue;
    }
    const reading = sensor.pressureMbar !== undefined ? `P${sensor.pressureMbar}` : `${sensor.value}`;
    fields.push(
      `S${sensor.sequence}=${reading}${sensor.temperature !== undefined ? `/${sensor.temperature}` : ''}`,
    );
  }
  if (report.alarms?.length) fields.push(`A=${report.alarms.join('+')}`);
  if (report.simCredit !== undefined) fields.push(`C=${report.simCredit.toFixed(2)}`);
  if (report.battery !== undefined) fields.push(`B=${report.battery}`);
  if (report.location) fields.push(`G=${report.location.lat},${report.location.lng}`);
  return fields.join(';');
}

/**
 * The query SMS, server to device (docs/protocols.md): `TP1;Q;<queryId>`. The device answers with
 * a measurement SMS at once; the query id only makes each query SMS distinct in the gateway's log.
 */
export function formatQuerySms(queryId: number): string {
  return `${SMS_VERSION};Q;${queryId}`;
}

/** The query id of a query SMS, or null for any other text. */
export function parseQuerySms(text: string): number | null {
  const match = /^TP1;Q;(\d{1,10})$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}
