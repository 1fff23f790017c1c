import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEntries, messages, queries } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { buildDevice } from '../../testing/factories.ts';
import { createJobQueue } from '../create-queue.ts';
import { purgeOldMessages, purgeOlderRows } from './purge-logs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

async function logAt(deviceId: number, createdAt: Date, content: string) {
  const [row] = await t.database.db
    .insert(messages)
    .values({
      deviceId,
      type: 'sms',
      direction: 'out',
      mode: 'systemToDevice',
      status: 'sent',
      content,
      createdAt,
    })
    .returning();
  return row;
}

describe('message retention', () => {
  it('deletes what is older than the retention nightly at 03:10 German time, and keeps the rest', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, 1);
    let now = at('2027-01-10T02:00:00Z');
    const old = await logAt(device.id, new Date(now.getTime() - 731 * DAY), 'alt');
    await logAt(device.id, new Date(now.getTime() - 729 * DAY), 'jung');
    // A query whose SMS is purged keeps its row.
    await db.insert(queries).values({ deviceId: device.id, status: 'processed', messageId: old.id });
    const queue = createJobQueue(db, t.config, t.app.context.deviceChannels, {
      clock: () => now,
      log: () => {},
    });
    expect(t.config.messageRetentionDays).toBe(730);
    await queue.tick();
    now = at('2027-01-10T02:10:00Z'); // 03:10 in German winter time
    // The purge, the reference-date queries' 5-minute tick and the forecasts' 10-minute round.
    expect(await queue.tick()).toBe(3);
    expect(await queue.runDueJobs()).toBe(3);
    const left = await db
      .select({ content: messages.content })
      .from(messages)
      .where(eq(messages.deviceId, device.id));
    expect(left).toEqual([{ content: 'jung' }]);
    const [query] = await db.select().from(queries).where(eq(queries.deviceId, device.id));
    expect(query.messageId).toBeNull();
  });

  it('deletes in batches until nothing old is left, and keeps everything with retention 0', async () => {
    const db = t.database.db;
    await db.delete(messages);
    const device = await buildDevice(db, 1);
    const now = at('2027-06-01T00:00:00Z');
    const rows = Array.from({ length: 10_050 }, (_, i) => ({
      deviceId: device.id,
      type: 'net' as const,
      direction: 'in' as const,
      mode: 'deviceToSystem' as const,
      status: 'processed' as const,
      content: `r${i}`,
      createdAt: new Date(now.getTime() - 40 * DAY - i * 1000),
    }));
    for (let i = 0; i < rows.length; i += 2000) await db.insert(messages).values(rows.slice(i, i + 2000));
    expect(await purgeOldMessages(db, now, 0)).toBe(0);
    expect(await purgeOldMessages(db, now, 30)).toBe(10_050);
    expect(await db.select().from(messages).where(eq(messages.deviceId, device.id))).toEqual([]);
  });
});

describe('record of changes retention', () => {
  it('deletes entries older than the retention (three years by default) and keeps the younger ones', async () => {
    const db = t.database.db;
    const now = at('2027-06-01T00:00:00Z');
    const entry = (daysAgo: number, username: string) => ({
      at: new Date(now.getTime() - daysAgo * DAY),
      userId: 1,
      username,
      entityType: 'device' as const,
      entityId: 1,
      deviceId: 1,
      action: 'update_comment' as const,
    });
    await db.insert(auditEntries).values([entry(1096, 'old'), entry(1094, 'young')]);
    expect(t.config.auditRetentionDays).toBe(1095);
    expect(await purgeOlderRows(db, 'audit_entries', now, t.config.auditRetentionDays)).toBe(1);
    expect(
      (await db.select({ username: auditEntries.username }).from(auditEntries)).map((row) => row.username),
    ).toEqual(['young']);
  });

  it('refuses to change an entry', async () => {
    const db = t.database.db;
    await expect(db.update(auditEntries).set({ username: 'someone else' })).rejects.toThrow();
  });
});
