import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { formatMeasurementSms } from '@tankportal/shared/protocols/sms';
import type { AlarmType } from '@tankportal/shared/devices';
import { alarmDescription, alarmTitle, portalDateTime } from '@tankportal/shared/alarm-texts';
import { createTestApp, TestClient, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { buildContact, buildRecipient } from '../testing/contacts-factories.ts';
import { TestSmtpServer } from '../testing/notifications-factories.ts';
import { FakeSmsGateway } from '../testing/fake-sms-gateway.ts';
import {
  alarms,
  devices,
  jobs,
  messages,
  notificationThrottle,
  sensors,
  smsGateways,
  users,
  whitelabels,
  type RecipientEvent,
} from '../db/schema.ts';
import { recordReport } from '../commands/record-report.ts';
import { storeBatch } from '../ingest/store-batch.ts';
import { createJobQueue } from '../jobs/create-queue.ts';
import type { JobQueue } from '../queue/queue.ts';
import { forwardDeviceMessage } from './forward.ts';

let t: TestApp;
let smtp: TestSmtpServer;
let gateway: FakeSmsGateway;
let queue: JobQueue;
let userId: number;
let client: TestClient;
const contactIds: { de: number; en: number } = { de: 0, en: 0 };
// The queue's clock runs an hour ahead of the database's: jobs enqueued just now are due, and a
// retry becomes due when the test moves this clock past its back-off.
let now = Date.now() + 3_600_000;
const clock = () => new Date(now);
let reportTime = Date.parse('2026-03-01T06:00:00Z');
let counter = 0;

const DE = { email: 'erika@example.test', cell: '+491701234567' };
const EN = { email: 'john@example.test', cell: '+447700900123' };

beforeAll(async () => {
  smtp = await TestSmtpServer.onFreePort();
  await smtp.start();
  gateway = new FakeSmsGateway();
  await gateway.start();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Tank Portal <alarm@tankportal.test>',
    SMS_LIONEL_API_URL: gateway.url,
    SMS_LIONEL_API_TOKEN: 'lionel-api-token',
    SMS_LIONEL_WEBHOOK_TOKEN: 'lionel-hook',
  });
  const db = t.database.db;
  [{ id: userId }] = await db.select().from(users).where(eq(users.username, 'user'));
  contactIds.de = (
    await buildContact(db, userId, {
      firstName: 'Erika',
      lastName: 'Mustermann',
      language: 'de',
      email: DE.email,
      cellNumber: '+49 170 1234567',
    })
  ).id;
  contactIds.en = (
    await buildContact(db, userId, {
      firstName: 'John',
      lastName: 'Smith',
      language: 'en',
      email: EN.email,
      cellNumber: '0044 (7700) 900-123',
    })
  ).id;
  queue = newQueue();
  client = new TestClient(t.app);
  await client.login('user');
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
  await gateway?.stop();
});

/** A job queue over the test database, as a (re)started server process builds it. */
function newQueue(config = t.config) {
  return createJobQueue(t.database.db, config, t.app.context.deviceChannels, { clock, log: () => {} });
}

const events = (notifyOnceIn: number | null = null, only?: RecipientEvent['name'][]): RecipientEvent[] =>
  (
    [
      { name: 'alarm', channels: ['sms', 'mail'], notifyOnceIn },
      { name: 'threshold', channels: ['sms', 'mail'], notifyOnceIn },
      { name: 'forward', channels: ['mail'], notifyOnceIn },
      { name: 'sim_credit_low', channels: ['sms', 'mail'], notifyOnceIn },
    ] satisfies RecipientEvent[]
  ).filter((event) => !only || only.includes(event.name));

type Device = typeof devices.$inferSelect;

/** A tank (10,000 l, threshold 20 %) of the demo user whose two contacts (de, en) hear of everything. */
async function tank(recipientEvents: RecipientEvent[] | null = events(), overrides: Partial<Device> = {}) {
  const db = t.database.db;
  const device = await buildDevice(db, userId, { name: `Hof ${++counter}`, ...overrides });
  if (recipientEvents) {
    await buildRecipient(db, device.id, contactIds.de, recipientEvents);
    await buildRecipient(db, device.id, contactIds.en, recipientEvents);
  }
  return device;
}

interface Reading {
  value?: number;
  alarms?: AlarmType[];
  simCredit?: number;
  temperature?: number;
}

/** A report through the bulk ingest path (what net, MQTT and SMS reports take). */
async function bulk(device: Device, reading: Reading) {
  reportTime += 3_600_000;
  await storeBatch(t.database.db, [
    {
      deviceId: device.id,
      sender: { type: 'net', identType: 'net_ident_code', ident: device.identCode ?? `dev-${device.id}` },
      report: {
        messageId: `m-${++counter}`,
        measuredAt: new Date(reportTime).toISOString(),
        sensors: [{ sequence: 1, value: reading.value ?? 8000, temperature: reading.temperature }],
        alarms: reading.alarms,
        simCredit: reading.simCredit,
      },
      content: '{}',
    },
  ]);
}

/** A report through the general path (record-report.ts). */
async function general(device: Device, reading: Reading) {
  reportTime += 3_600_000;
  await recordReport(t.database.db, device.id, {
    measuredAt: new Date(reportTime),
    readings: [{ sequence: 1, value: reading.value ?? 8000, temperature: reading.temperature }],
    alarmCodes: reading.alarms,
    simCreditQty: reading.simCredit,
  });
}

const label = (device: Device) => `${device.id} "${device.name}"`;
const mailsOf = (device: Device) => smtp.mails.filter((mail) => mail.subject.includes(label(device)));
const smsOf = (device: Device) => gateway.sms.filter((sms) => sms.text.includes(label(device)));
const mailTo = (device: Device, email: string) => mailsOf(device).filter((mail) => mail.to.includes(email));
const smsTo = (device: Device, cell: string) => smsOf(device).filter((sms) => sms.to === cell);

async function outgoing(device: Device) {
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.deviceId, device.id), eq(messages.direction, 'out')))
    .orderBy(asc(messages.id));
}

async function jobsOf(device: Device) {
  const result = await t.database.db.execute<{ id: number; status: string; attempts: number }>(sql`
    SELECT j.id, j.status, j.attempts FROM jobs j
    JOIN messages m ON m.id = (j.payload->>'messageId')::bigint
    WHERE m.device_id = ${device.id}`);
  return result.rows;
}

describe('notification delivery', () => {
  it('an alarm reaches every recipient by mail and SMS in the contact language (bulk path)', async () => {
    const device = await tank();
    await bulk(device, { alarms: ['power_failure'] });
    expect(await queue.runDueJobs()).toBe(4);

    const [de] = mailTo(device, DE.email);
    expect(de.from).toBe('alarm@tankportal.test');
    expect(de.subject).toContain(`Alarm – Gerät ${label(device)}`);
    expect(de.text).toContain(`Gerät ${label(device)} meldet einen Alarm.`);
    expect(de.text).toContain(`- Stromausfall (neu) - ${alarmDescription('power_failure', 'de')}`);
    expect(de.text).toMatch(/Zeitpunkt: 01\.03\.2026 08:00/);
    const [en] = mailTo(device, EN.email);
    expect(en.subject).toContain(`Alarm – Device ${label(device)}`);
    expect(en.text).toContain(`- Power failure (new) - ${alarmDescription('power_failure', 'en')}`);
    expect(en.text).toMatch(/Time: 03\/01\/2026 08:00 AM/);

    const [smsDe] = smsTo(device, DE.cell);
    expect(smsDe.text).toMatch(
      new RegExp(
        `^Tank Portal: Alarm - Gerät ${label(device)}: Stromausfall \\(neu\\) - Die Stromversorgung \\(230 V\\) des Geräts ist ausgefallen\\. 01\\.03\\.2026 08:00$`,
      ),
    );
    expect(smsDe.authorization).toBe('Bearer lionel-api-token');
    expect(smsDe.url).toBe('/messages');
    // The English contact's number was stored as "0044 (7700) 900-123".
    expect(smsTo(device, EN.cell)[0].text).toContain('Power failure (new)');
    expect(smsOf(device)).toHaveLength(2);
    expect(mailsOf(device)).toHaveLength(2);

    const rows = await outgoing(device);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      // An SMS is at the gateway until its delivery report; a mail handed to SMTP is sent.
      expect(row).toMatchObject({
        direction: 'out',
        mode: 'systemToExternal',
        status: row.type === 'sms' ? 'gateway' : 'sent',
      });
      expect(row.sentAt).toBeInstanceOf(Date);
    }
    expect(rows.map((row) => `${row.type} ${row.toIdent}`).sort()).toEqual(
      [`mail ${DE.email}`, `mail ${EN.email}`, `sms ${DE.cell}`, `sms ${EN.cell}`].sort(),
    );
    const sms = rows.find((row) => row.type === 'sms')!;
    expect(sms.report).toMatch(/^gateway message id gw-\d+$/);
    const [lionel] = await t.database.db.select().from(smsGateways).where(eq(smsGateways.provider, 'lionel'));
    expect(sms.gatewayId).toBe(lionel.id);
    expect(rows.find((row) => row.type === 'mail')!.content).toMatch(/^Tank Portal: Alarm – Gerät .*\n\n/);
    expect((await jobsOf(device)).every((job) => job.status === 'done')).toBe(true);
  });

  it('the general path notifies the same way; an alarm still open notifies again, one that closed stays quiet', async () => {
    const device = await tank(events(null, ['alarm']));
    await general(device, { alarms: ['e001'] });
    await queue.runDueJobs();
    expect(mailTo(device, DE.email)[0].text).toContain('- Gerätefehler E001 (neu)');
    expect(mailTo(device, EN.email)[0].text).toContain('- Device error E001 (new)');
    await general(device, { alarms: ['e001'] });
    await queue.runDueJobs();
    expect(mailTo(device, EN.email)[1].text).toContain('- Device error E001 (still open)');
    expect(smsTo(device, DE.cell)[1].text).toContain('Gerätefehler E001 (weiterhin offen)');
    await general(device, {});
    expect(await queue.runDueJobs()).toBe(0);
    expect(mailsOf(device)).toHaveLength(4);
  });

  it('a temperature alarm names its sensor, value and unit, explained as on the status page, with the device link', async () => {
    const device = await tank(events(null, ['alarm']));
    await t.database.db
      .update(sensors)
      .set({ temperatureLimitType: 'below', temperatureLimitValue: 3 })
      .where(eq(sensors.deviceId, device.id));
    const [{ whitelabelId }] = await t.database.db
      .select({ whitelabelId: users.whitelabelId })
      .from(users)
      .where(eq(users.id, userId));
    const ownWhitelabel = whitelabelId ? eq(whitelabels.id, whitelabelId) : eq(whitelabels.isDefault, true);
    const [{ hosts }] = await t.database.db
      .select({ hosts: whitelabels.hosts })
      .from(whitelabels)
      .where(ownWhitelabel);
    await t.database.db
      .update(whitelabels)
      .set({ hosts: ['portal.example.test', ...hosts] })
      .where(ownWhitelabel);
    const alarmAt = new Date(reportTime + 3_600_000);
    try {
      await bulk(device, { temperature: 1 });
      await queue.runDueJobs();
    } finally {
      await t.database.db.update(whitelabels).set({ hosts }).where(ownWhitelabel);
    }
    // Stored with its sensor's number, by which the pages name it (both ingest paths).
    const stored = await t.database.db.select().from(alarms).where(eq(alarms.deviceId, device.id));
    expect(stored).toMatchObject([{ type: 'temperature', scope: 'sensor', sequence: 1, value: '1' }]);
    const other = await tank(null);
    await t.database.db
      .update(sensors)
      .set({ temperatureLimitType: 'below', temperatureLimitValue: 3 })
      .where(eq(sensors.deviceId, other.id));
    await general(other, { temperature: 2 });
    expect(await t.database.db.select().from(alarms).where(eq(alarms.deviceId, other.id))).toMatchObject([
      { type: 'temperature', scope: 'sensor', sequence: 1, value: '2' },
    ]);

    // The status page's wording (shared/alarm-texts.ts), word for word.
    const alarm = {
      type: 'temperature' as const,
      value: '1',
      sensor: { sequence: 1, name: 'Heizöl', unit: 'c' },
    };
    const titleDe = alarmTitle(alarm, 'de');
    const titleEn = alarmTitle(alarm, 'en');
    expect(titleDe).toBe('Temperaturalarm Sensor 1 (Heizöl): 1,0 °C');
    expect(titleEn).toBe('Temperature alarm Sensor 1 (Heizöl): 1.0 °C');

    const [de] = mailTo(device, DE.email);
    expect(de.text).toContain(`- ${titleDe} (neu) - ${alarmDescription('temperature', 'de')}`);
    // The portal's date format per language, in the service's time zone.
    expect(de.text).toContain(`Zeitpunkt: ${portalDateTime(alarmAt, 'de', 'Europe/Berlin')}`);
    expect(de.text).toMatch(/Zeitpunkt: \d\d\.\d\d\.\d{4} \d\d:\d\d\n/);
    expect(de.text).toContain(`Im Portal öffnen: https://portal.example.test/devices/${device.id}`);
    const [en] = mailTo(device, EN.email);
    expect(en.text).toContain(`- ${titleEn} (new) - ${alarmDescription('temperature', 'en')}`);
    expect(en.text).toMatch(/Time: \d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M\n/);
    expect(en.text).toContain(`Open in the portal: https://portal.example.test/devices/${device.id}`);

    // SMS stay in the GSM alphabet: the unit is written without its degree sign.
    const [smsDe] = smsTo(device, DE.cell);
    expect(smsDe.text).toContain(
      `Temperaturalarm Sensor 1 (Heizöl): 1,0 C (neu) - ${alarmDescription('temperature', 'de')}`,
    );
    expect(smsTo(device, EN.cell)[0].text).toContain(
      `Temperature alarm Sensor 1 (Heizöl): 1.0 C (new) - ${alarmDescription('temperature', 'en')}`,
    );
  });

  it('disregard stops, seen continues, revoked stays silent until a new alarm opens', async () => {
    const device = await tank(events(null, ['alarm']));
    const delivered = async () => {
      await queue.runDueJobs();
      return mailTo(device, EN.email).length;
    };
    await bulk(device, { alarms: ['burner_error'] });
    expect(await delivered()).toBe(1);
    const [{ id: alarmId }] = (await client.get(`/api/v2/devices/${device.id}`)).json().alarms;

    expect((await client.put(`/api/v2/alarms/${alarmId}/confirmation`, { status: 'seen' })).statusCode).toBe(
      200,
    );
    await bulk(device, { alarms: ['burner_error'] });
    expect(await delivered()).toBe(2);

    await client.put(`/api/v2/alarms/${alarmId}/confirmation`, { status: 'disregard' });
    await bulk(device, { alarms: ['burner_error'] });
    await general(device, { alarms: ['burner_error'] });
    expect(await delivered()).toBe(2);

    const revoked = await client.delete(`/api/v2/alarms/${alarmId}/confirmation`);
    expect(revoked.json().confirmationStatus).toBeNull();
    await bulk(device, { alarms: ['burner_error'] });
    expect(await delivered()).toBe(2);

    // The alarm ends and a new one opens: notified again.
    await bulk(device, {});
    expect(await delivered()).toBe(2);
    await general(device, { alarms: ['burner_error'] });
    expect(await delivered()).toBe(3);
    expect(mailTo(device, EN.email)[2].text).toContain('Burner error (new)');
  });

  it('threshold: a crossing notifies, disregard and revoked stop until the next crossing', async () => {
    const device = await tank(events(null, ['threshold']));
    const delivered = async () => {
      await queue.runDueJobs();
      return mailTo(device, DE.email).length;
    };
    const url = `/api/v2/devices/${device.id}/threshold-confirmation`;
    await general(device, { value: 1500 }); // 15 % of 10,000 l, threshold 20 %
    expect(await delivered()).toBe(1);
    const [de] = mailTo(device, DE.email);
    expect(de.subject).toContain(`Gerät ${label(device)} – Meldebestand unterschritten`);
    expect(de.text).toContain('- Sensor 1 "Heizöl": 15 % (1.500 l), Meldebestand 20 %');
    const [en] = mailTo(device, EN.email);
    expect(en.subject).toContain('fill level below the threshold');
    expect(en.text).toContain('- sensor 1 "Heizöl": 15 % (1,500 l), threshold 20 %');
    expect(smsTo(device, DE.cell)[0].text).toContain('Meldebestand unterschritten');

    await bulk(device, { value: 1400 }); // still below, unconfirmed: again
    expect(await delivered()).toBe(2);
    await client.put(url, { status: 'seen' });
    await general(device, { value: 1300 });
    expect(await delivered()).toBe(3);
    await client.put(url, { status: 'disregard' });
    await general(device, { value: 1200 });
    await bulk(device, { value: 1100 });
    expect(await delivered()).toBe(3);
    expect((await client.delete(url)).json()).toEqual({ thresholdConfirmationStatus: null });
    await bulk(device, { value: 1000 });
    expect(await delivered()).toBe(3);
    await bulk(device, { value: 9000 }); // refilled: ok
    expect(await delivered()).toBe(3);
    await bulk(device, { value: 1900 }); // a new crossing
    expect(await delivered()).toBe(4);
  });

  it('sim_credit_low: notifies when the credit falls below the limit, again only after a top-up', async () => {
    const device = await tank(events(null, ['sim_credit_low']), { simCreditCurrency: 'EUR' });
    const delivered = async () => {
      await queue.runDueJobs();
      return mailTo(device, DE.email).length;
    };
    await bulk(device, { simCredit: 10 });
    expect(await delivered()).toBe(0);
    await bulk(device, { simCredit: 4.5 });
    expect(await delivered()).toBe(1);
    expect(mailTo(device, DE.email)[0].text).toContain(
      'Das SIM-Guthaben beträgt 4,50 EUR (Grenze 5,00 EUR).',
    );
    expect(mailTo(device, EN.email)[0].subject).toContain('SIM credit low');
    expect(smsTo(device, EN.cell)[0].text).toContain('The SIM credit is 4.50 EUR (limit 5.00 EUR).');
    await bulk(device, { simCredit: 3 });
    await general(device, { simCredit: 2 });
    expect(await delivered()).toBe(1);
    await general(device, { simCredit: 20 });
    await general(device, { simCredit: 1 });
    expect(await delivered()).toBe(2);
  });

  it('notifyOnceIn throttles per recipient and event', async () => {
    const hour = 3_600;
    const device = await tank(events(hour));
    const count = async () => {
      await queue.runDueJobs();
      return { mails: mailTo(device, DE.email).length, sms: smsTo(device, DE.cell).length };
    };
    await bulk(device, { alarms: ['e002'] });
    expect(await count()).toEqual({ mails: 1, sms: 1 });
    await bulk(device, { alarms: ['e002'] });
    await general(device, { alarms: ['e002', 'e003'] });
    expect(await count()).toEqual({ mails: 1, sms: 1 });
    // Another event is throttled on its own.
    await bulk(device, { alarms: ['e002', 'e003'], value: 1000 });
    expect(await count()).toEqual({ mails: 2, sms: 2 });
    expect(mailTo(device, DE.email)[1].subject).toContain('Meldebestand unterschritten');
    // The hour has passed (the throttle remembers when it last told).
    await t.database.db
      .update(notificationThrottle)
      .set({ lastNotifiedAt: sql`${notificationThrottle.lastNotifiedAt} - interval '61 minutes'` });
    await bulk(device, { alarms: ['e002', 'e003'], value: 1000 });
    expect(await count()).toEqual({ mails: 4, sms: 4 });
  });

  it('an inactive device notifies nobody', async () => {
    const device = await tank(events(), { active: false, simCreditCurrency: 'EUR' });
    await bulk(device, { alarms: ['power_failure'], value: 500, simCredit: 1 });
    await general(device, { alarms: ['e004'], value: 400 });
    await forwardDeviceMessage(t.database.db, device.id, {
      type: 'sms',
      fromIdent: '+49170555',
      fromType: 'cell_number',
      text: 'Hallo',
    });
    expect(await outgoing(device)).toEqual([]);
    expect(await jobsOf(device)).toEqual([]);
  });

  it('a device without recipients enqueues nothing', async () => {
    const device = await tank(null);
    const [before] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(jobs);
    await bulk(device, { alarms: ['power_failure'], value: 500, simCredit: 1 });
    await general(device, { alarms: ['e004'], value: 400 });
    const [after] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(jobs);
    expect(after.n).toBe(before.n);
    expect(await outgoing(device)).toEqual([]);
  });

  it('SMTP down during the alarm: the mail arrives after SMTP is back, exactly once', async () => {
    const device = await tank(events(null, ['alarm']));
    await smtp.stop();
    await bulk(device, { alarms: ['interruption'] });
    expect(await queue.runDueJobs()).toBe(4);
    expect(smsOf(device)).toHaveLength(2); // SMS are not held up by the mail server
    expect(mailsOf(device)).toHaveLength(0);
    const waiting = (await outgoing(device)).filter((row) => row.type === 'mail');
    expect(waiting.map((row) => row.status)).toEqual(['created', 'created']);
    expect(waiting[0].report).toMatch(/^attempt 1 of 20 failed: /);

    await smtp.start();
    expect(await queue.runDueJobs()).toBe(0); // the retry waits for its back-off
    now += 10_000;
    expect(await queue.runDueJobs()).toBe(2);
    now += 24 * 3_600_000;
    expect(await queue.runDueJobs()).toBe(0);
    expect(mailsOf(device)).toHaveLength(2);
    expect(mailTo(device, DE.email)[0].text).toContain('Unterbrechung (neu)');
    const sent = (await outgoing(device)).filter((row) => row.type === 'mail');
    expect(sent.map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(sent[0].report).toMatch(/^SMTP: 250/);
  });

  it('a restarted process delivers what an earlier one left pending or died holding', async () => {
    const device = await tank(events(null, ['alarm']));
    await bulk(device, { alarms: ['detection_loop'] });
    // The first process died: two jobs never claimed, two claimed with a lease that ran out.
    const pending = await jobsOf(device);
    expect(pending).toHaveLength(4);
    await t.database.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedUntil: new Date(now - 1_000) })
      .where(sql`${jobs.id} IN (${pending[0].id}, ${pending[1].id})`);
    const restarted = newQueue();
    expect(await restarted.runDueJobs()).toBe(4);
    expect(mailsOf(device)).toHaveLength(2);
    expect(smsOf(device)).toHaveLength(2);
    expect(await queue.runDueJobs()).toBe(0);
  });

  it('without SMTP_URL a mail is recorded as a message that was not sent, without retries', async () => {
    const device = await tank(events(null, ['alarm']));
    const embedded = newQueue({ ...t.config, smtpUrl: undefined });
    await bulk(device, { alarms: ['custom'] });
    expect(await embedded.runDueJobs()).toBe(4);
    now += 24 * 3_600_000;
    expect(await embedded.runDueJobs()).toBe(0);
    const rows = await outgoing(device);
    const mails = rows.filter((row) => row.type === 'mail');
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail).toMatchObject({
        status: 'sending_failed',
        report: 'not sent: no SMTP server is configured (SMTP_URL)',
        sentAt: null,
      });
      expect(mail.content).toMatch(
        mail.toIdent === EN.email ? /- Custom alarm \(new\)/ : /- Benutzerdefinierter Alarm \(neu\)/,
      );
    }
    expect(rows.filter((row) => row.type === 'sms').map((row) => row.status)).toEqual(['gateway', 'gateway']);
    const states = (await jobsOf(device)).map((job) => `${job.status}/${job.attempts}`).sort();
    expect(states).toEqual(['done/1', 'done/1', 'failed/1', 'failed/1']);
    expect(mailsOf(device)).toHaveLength(0);
  });

  it('an SMS gateway error is retried; a refusal ends as sending_failed at once', async () => {
    const device = await tank([{ name: 'alarm', channels: ['sms'], notifyOnceIn: null }]);
    gateway.status = 503;
    await bulk(device, { alarms: ['generic'] });
    expect(await queue.runDueJobs()).toBe(2);
    expect((await outgoing(device)).map((row) => row.status)).toEqual(['created', 'created']);
    gateway.status = 200;
    now += 10_000;
    expect(await queue.runDueJobs()).toBe(2);
    expect(smsOf(device)).toHaveLength(2);

    gateway.status = 400;
    await bulk(device, { alarms: ['generic'] });
    expect(await queue.runDueJobs()).toBe(2);
    gateway.status = 200;
    now += 24 * 3_600_000;
    expect(await queue.runDueJobs()).toBe(0);
    const failed = (await outgoing(device)).slice(2);
    expect(failed.map((row) => row.status)).toEqual(['sending_failed', 'sending_failed']);
    expect(failed[0].report).toMatch(/^gateway answered 400/);
  });

  it('an alarm SMS of an SMS device leaves through its outbound gateway', async () => {
    // A second Lionel gateway: the device's, not the first one, carries its notifications.
    const [second] = await t.database.db
      .insert(smsGateways)
      .values({ label: 'Lionel 2', provider: 'lionel', owner: 'test', country: 'DE' })
      .returning();
    const cellNumber = '+491709990001';
    const device = await tank(events(null, ['alarm']), {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber,
      outboundGatewayId: second.id,
    });
    const text = formatMeasurementSms({
      messageId: '1',
      measuredAt: new Date(reportTime),
      sensors: [{ sequence: 1, value: 7000 }],
      alarms: ['power_failure'],
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/ingest/sms/lionel',
      headers: { 'x-webhook-token': 'lionel-hook' },
      payload: { messageId: 'hook-1', from: cellNumber, text },
    });
    expect(response.json()).toMatchObject({ status: 'processed' });
    await queue.runDueJobs();
    expect(smsTo(device, DE.cell)[0].text).toContain('Stromausfall (neu)');
    const sms = (await outgoing(device)).filter((row) => row.type === 'sms');
    expect(sms.map((row) => row.gatewayId)).toEqual([second.id, second.id]);
  });

  it('forward: a free-text message of the device is mailed to the forward recipients, once', async () => {
    const device = await tank(events(null, ['forward']));
    const inbound = {
      type: 'sms' as const,
      fromIdent: '+491701112233',
      fromType: 'cell_number' as const,
      text: 'Service: Pumpe getauscht, bitte Werte prüfen.',
      dedupKey: 'lionel:hook-forward-1',
    };
    expect(await forwardDeviceMessage(t.database.db, device.id, inbound)).toEqual({
      duplicate: false,
      forwarded: 2,
    });
    expect(await forwardDeviceMessage(t.database.db, device.id, inbound)).toEqual({
      duplicate: true,
      forwarded: 0,
    });
    await queue.runDueJobs();
    const [de] = mailTo(device, DE.email);
    expect(de.subject).toContain(`Nachricht von Gerät ${label(device)}`);
    expect(de.text).toContain('hat diese Nachricht gesendet (SMS +491701112233):');
    expect(de.text).toContain('Service: Pumpe getauscht, bitte Werte prüfen.');
    expect(mailTo(device, EN.email)[0].subject).toContain(`Message from device ${label(device)}`);
    expect(mailsOf(device)).toHaveLength(2);
    expect(smsOf(device)).toHaveLength(0);
    const [logged] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.deviceId, device.id), eq(messages.direction, 'in')));
    expect(logged).toMatchObject({
      status: 'processed',
      indication: 'forward',
      report: 'forwarded by mail to 2 recipient(s)',
    });
  });
});
