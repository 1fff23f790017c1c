import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { expect } from 'vitest';
import type { Db } from '../db/client.ts';
import type { TestMosquitto } from './mosquitto.ts';

/** A report a device sent and got an acknowledgement for (the broker's PUBACK, an HTTP 2xx). */
export interface Published {
  /** The device's thing name (IoT) or ident code. */
  thingName: string;
  measuredAt: string;
}

export interface Pace {
  /** Reports each device sends. */
  perDevice: number;
  /** Reports a device keeps unacknowledged at a time. */
  window: number;
  /** Pause after each report. */
  pauseMs: number;
}

/**
 * IoT devices that publish `perDevice` reports each, QoS 1, through `broker`; mqtt.js resends what
 * is unacknowledged after a reconnect. Resolves with the reports the broker acknowledged once
 * every report was: what the portal must have stored, each once.
 */
export async function publishReports(
  broker: TestMosquitto,
  thingNames: string[],
  password: string,
  { perDevice, window, pauseMs }: Pace,
): Promise<Published[]> {
  const acknowledged: Published[] = [];
  const clients: MqttClient[] = await Promise.all(
    thingNames.map((thingName) =>
      mqtt.connectAsync(broker.url({ username: thingName, password }), {
        clientId: thingName,
        clean: false,
        reconnectPeriod: 200,
        connectTimeout: 5_000,
      }),
    ),
  );
  // A broker restart while devices report: mqtt.js reports it as an error event; it reconnects.
  for (const client of clients) client.on('error', () => {});
  const base = Date.parse('2026-03-01T00:00:00Z');
  await Promise.all(
    clients.map(async (client, index) => {
      const thingName = thingNames[index];
      let next = 0;
      await Promise.all(
        Array.from({ length: window }, async () => {
          while (next < perDevice) {
            const n = next++;
            const measuredAt = new Date(base + n * 60_000).toISOString();
            const payload = JSON.stringify({
              messageId: String(n),
              measuredAt,
              sensors: [{ sequence: 1, value: 5000 - n }],
            });
            await client.publishAsync(`devices/iot/${thingName}/report`, payload, { qos: 1 });
            acknowledged.push({ thingName, measuredAt });
            if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
          }
        }),
      );
    }),
  );
  await Promise.all(clients.map((client) => client.endAsync()));
  return acknowledged;
}

export interface StoredReports {
  /** Measurement rows per report (`thingName|measuredAt`). */
  byReport: Map<string, number>;
  /** Log entries of the devices' reports marked processed. */
  processed: number;
}

/**
 * Measurements and processed log entries of the devices, per report; the devices named by their
 * thing name (IoT) or by their ident code (net, SMS).
 */
export async function storedReports(
  db: Db,
  idents: string[],
  identColumn: 'thing_name' | 'ident_code' = 'thing_name',
): Promise<StoredReports> {
  const ident = sql.identifier(identColumn);
  const { rows } = await db.execute<{ ident: string; at: string; rows: number }>(sql`
    SELECT d.${ident} AS ident, to_char(m.measured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
           count(*)::int AS rows
    FROM measurements m JOIN sensors s ON s.id = m.sensor_id JOIN devices d ON d.id = s.device_id
    WHERE d.${ident} IN ${idents} GROUP BY 1, 2`);
  const [{ processed }] = (
    await db.execute<{ processed: number }>(sql`
      SELECT count(*)::int AS processed FROM messages m JOIN devices d ON d.id = m.device_id
      WHERE d.${ident} IN ${idents} AND m.status = 'processed'`)
  ).rows;
  return { byReport: new Map(rows.map((row) => [`${row.ident}|${row.at}`, row.rows])), processed };
}

export const missingOf = (acknowledged: Published[], byReport: Map<string, number>) =>
  acknowledged.filter(({ thingName, measuredAt }) => !byReport.has(`${thingName}|${measuredAt}`));

/** What a device would notice: an acknowledged report missing, or one counted twice. */
export function expectEveryAcknowledgedReportStoredOnce(
  acknowledged: Published[],
  { byReport, processed }: StoredReports,
) {
  const missing = missingOf(acknowledged, byReport);
  const twice = [...byReport.values()].filter((rows) => rows !== 1);
  expect({ missing: missing.length, twice: twice.length }).toEqual({ missing: 0, twice: 0 });
  // Each stored report was logged as processed once (a redelivery is logged as a duplicate).
  expect(processed).toBe(byReport.size);
}

/**
 * A network device's report over HTTP to one server process: the answer's status, 0 when none came
 * (the process is down or the connection was cut), for the fault tests that repeat until a 2xx.
 */
export const postNetReport = (port: number, body: string): Promise<number> =>
  fetch(`http://127.0.0.1:${port}/ingest/net/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  }).then(
    (response) => response.status,
    () => 0,
  );
