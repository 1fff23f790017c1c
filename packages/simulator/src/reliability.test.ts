import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DemoDevice } from '@tankportal/shared/demo-fleet';
import { openDatabase } from '../../server/src/db/client.ts';
import { startPortal, stopProcess } from '../../server/src/testing/server-process.ts';
import { migratedDataDir } from '../../server/src/testing/test-database.ts';
import { simulate } from './simulator.ts';
import type { SimulatedReport } from './device-model.ts';

const PORT = 3950;
// The run's migrated database, seeded with the demo data by the server's first start.
const { dataDir, remove } = await migratedDataDir('tp-reliability-');
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DEMO_DATA: '1',
  LOG_LEVEL: 'error',
  SMS_LIONEL_WEBHOOK_TOKEN: 'sim-lionel',
  SMS_1NCE_WEBHOOK_TOKEN: 'sim-1nce',
  DATABASE_URL: '',
};

const startServer = () => startPortal(PORT, { ...env, MQTT_PORT: String(PORT + 1) });

afterAll(remove);

describe('reliability', () => {
  it('stores every acknowledged report exactly once although the server is killed (SIGKILL) and restarted', async () => {
    let server = await startServer();
    const acknowledged: { device: DemoDevice; report: SimulatedReport }[] = [];
    const run = simulate({
      server: `http://127.0.0.1:${PORT}`,
      mqttUrl: `mqtt://127.0.0.1:${PORT + 1}`,
      smsTokens: { lionel: 'sim-lionel', '1nce': 'sim-1nce' },
      devices: 60,
      types: ['net', 'iot', 'lx_iot', 'sms'],
      rate: 40,
      durationSeconds: 14,
      seed: 7,
      onAcknowledged: (device, report) => acknowledged.push({ device, report }),
    });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const beforeKill = acknowledged.length;
    await stopProcess(server, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    server = await startServer();
    const stats = await run;
    await stopProcess(server);

    expect(beforeKill).toBeGreaterThan(20);
    expect(acknowledged.length).toBeGreaterThan(beforeKill + 20);
    expect(stats.failed).toBe(0);

    const database = await openDatabase({ dataDir });
    try {
      const { rows } = await database.db.execute<{ ident: string; at: Date; n: number }>(sql`
        SELECT coalesce(d.ident_code, d.thing_name, d.iccid, d.cell_number) AS ident, m.measured_at AS at, count(*)::int AS n
        FROM measurements m JOIN sensors s ON s.id = m.sensor_id AND s.sequence = 1 JOIN devices d ON d.id = s.device_id
        WHERE m.measured_at > now() - interval '1 hour'
        GROUP BY 1, 2`);
      const stored = new Map(rows.map((row) => [`${row.ident}|${new Date(row.at).toISOString()}`, row.n]));
      const missing = acknowledged.filter(
        ({ device, report }) => stored.get(`${device.ident}|${report.measuredAt.toISOString()}`) !== 1,
      );
      const missingByType = Object.groupBy(missing, ({ device }) => device.type);
      expect(
        Object.fromEntries(Object.entries(missingByType).map(([type, list]) => [type, list!.length])),
      ).toEqual({});
    } finally {
      await database.close();
    }
    // Two starts of the demo portal on PGlite and 14 s of reports: about 45 s on a quiet machine, but a
    // first start with the demo's forecasts took up to 80 s on a loaded one.
  }, 180_000);
});
