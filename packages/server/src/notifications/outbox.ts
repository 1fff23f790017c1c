import { sql } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import { allowedChannels, type NotificationChannel } from '@tankportal/shared/notifications';
import type { Db, Tx } from '../db/client.ts';
import { messages, type RecipientEvent } from '../db/schema.ts';
import { enqueue } from '../queue/queue.ts';
import { DELIVER_NOTIFICATION } from './delivery.ts';
import type { DeviceEvent } from './events.ts';
import { GatheredEvents } from './gathered-events.ts';
import { renderNotification } from './texts.ts';
import { runNamed } from '../db/named-statements.ts';
import { idArray } from '../db/id-array.ts';

/** Used when a contact's user has no white-label title. */
const DEFAULT_BRAND = 'Tank Portal';

type RecipientRow = {
  id: number;
  device_id: number;
  events: RecipientEvent[] | string;
  cell_number: string | null;
  email: string | null;
  language: Locale;
  brand: string | null;
  /** The first host of the contact's white-label (of the default one without a white-label). */
  host: string | null;
  /** event name -> last notified at (ISO), from notification_throttle. */
  throttle: Record<string, string> | string | null;
};

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * The notifications a transaction's state changes cause, written in that same transaction (the
 * outbox): the ingest paths and the checks `add` what they detect (gathered-events.ts: gathering
 * runs no code of this file), and `flush` turns it into one Message per recipient and channel plus
 * a delivery job each. Nothing is sent here; the job queue delivers after the commit, so a
 * rolled-back report notifies nobody and a committed one is never forgotten.
 */
export class NotificationOutbox extends GatheredEvents {
  /**
   * Writes the notifications of everything added: one query for the recipients of the devices
   * concerned (none when nothing was added), then per recipient and event the notifyOnceIn throttle,
   * a Message per ticked channel the contact can receive, and a delivery job per Message.
   * Answers the number of Messages created.
   */
  async flush(tx: Db | Tx, now = new Date()): Promise<number> {
    if (this.pending.size === 0) return 0;
    const deviceIds = [...this.pending.keys()];
    // Named: run with nearly every batch of reports, parsed and planned once per connection.
    const found = await runNamed<RecipientRow>(
      tx,
      'notification_recipients',
      sql`
      SELECT r.id, r.device_id, r.events, c.cell_number, c.email, c.language,
        coalesce(w.title, (SELECT title FROM whitelabels WHERE is_default LIMIT 1)) AS brand,
        CASE WHEN w.id IS NULL THEN (SELECT hosts[1] FROM whitelabels WHERE is_default LIMIT 1)
          ELSE w.hosts[1] END AS host,
        (SELECT json_object_agg(t.event, t.last_notified_at) FROM notification_throttle t
          WHERE t.recipient_id = r.id) AS throttle
      FROM notification_recipients r
      JOIN contacts c ON c.id = r.contact_id
      JOIN users u ON u.id = c.user_id
      LEFT JOIN whitelabels w ON w.id = u.whitelabel_id
      WHERE r.device_id = ANY(${idArray(deviceIds)})
      ORDER BY r.id`,
    );
    const pending = new Map(this.pending);
    this.pending.clear();
    if (found.rows.length === 0) return 0;

    const dealerSide = await dealerSideRecipients(tx, pending, found.rows);
    const throttled: { recipient_id: number; event: string; last_notified_at: string }[] = [];
    const outgoing: (typeof messages.$inferInsert)[] = [];
    for (const recipient of found.rows) {
      const entry = pending.get(Number(recipient.device_id));
      if (!entry) continue;
      const settings = json<RecipientEvent[]>(recipient.events);
      const lastNotified = json<Record<string, string>>(recipient.throttle ?? {}) ?? {};
      const contact = { cellNumber: recipient.cell_number, email: recipient.email };
      for (const pendingEvent of entry.events.values()) {
        const event = forRecipient(pendingEvent, dealerSide.has(Number(recipient.id)));
        if (!event) continue;
        const setting = settings.find((s) => s.name === event.name);
        if (!setting) continue;
        // Only channels the event allows and the contact can receive (an e-mail removed since).
        const channels = setting.channels.filter((channel) =>
          allowedChannels(event.name, contact).includes(channel),
        );
        if (channels.length === 0) continue;
        const last = lastNotified[event.name];
        // Each change of an order is news of its own: the throttle is for repeated states.
        const throttles = event.name !== 'order';
        if (
          throttles &&
          setting.notifyOnceIn &&
          last &&
          now.getTime() - Date.parse(last) < setting.notifyOnceIn * 1000
        )
          continue;
        if (throttles)
          throttled.push({
            recipient_id: Number(recipient.id),
            event: event.name,
            last_notified_at: now.toISOString(),
          });
        const text = renderNotification(
          event,
          entry.device,
          recipient.language === 'en' ? 'en' : 'de',
          recipient.brand ?? DEFAULT_BRAND,
          portalUrl(recipient.host),
        );
        for (const channel of channels) outgoing.push(message(entry.device.id, channel, contact, text));
      }
    }
    if (throttled.length > 0) {
      await tx.execute(sql`
        INSERT INTO notification_throttle (recipient_id, event, last_notified_at)
        SELECT * FROM json_to_recordset(${JSON.stringify(throttled)}::json)
          AS v(recipient_id int, event text, last_notified_at timestamptz)
        ON CONFLICT (recipient_id, event) DO UPDATE SET last_notified_at = excluded.last_notified_at`);
    }
    if (outgoing.length === 0) return 0;
    const created = await tx.insert(messages).values(outgoing).returning({ id: messages.id });
    await enqueue(
      tx,
      DELIVER_NOTIFICATION,
      created.map((row) => ({ v: 1 as const, messageId: row.id })),
    );
    return created.length;
  }
}

/**
 * The recipients on the dealer's side of their device: whose contact is in the contact book of an
 * admin or master other than the device's owner. Asked only when an order's change is pending.
 */
async function dealerSideRecipients(
  tx: Db | Tx,
  pending: Map<number, { events: Map<string, DeviceEvent> }>,
  recipients: RecipientRow[],
): Promise<Set<number>> {
  const withOrders = [...pending.values()].some((entry) => entry.events.has('order'));
  if (!withOrders) return new Set();
  const found = await tx.execute<{ id: number }>(sql`
    SELECT r.id FROM notification_recipients r
    JOIN contacts c ON c.id = r.contact_id
    JOIN users u ON u.id = c.user_id
    JOIN devices d ON d.id = r.device_id
    WHERE r.id = ANY(${idArray(recipients.map((row) => row.id))})
      AND u.role IN ('ROLE_ADMIN', 'ROLE_SUPERADMIN', 'ROLE_MASTER') AND u.id <> d.user_id`);
  return new Set(found.rows.map((row) => Number(row.id)));
}

/** The event as one recipient hears it: an order's changes only those meant for its side. */
function forRecipient(event: DeviceEvent, dealerSide: boolean): DeviceEvent | null {
  if (event.name !== 'order') return event;
  const audience = dealerSide ? 'dealer' : 'customer';
  const orders = event.orders.filter((order) => order.audience === audience);
  return orders.length > 0 ? { ...event, orders } : null;
}

/**
 * The portal a recipient reaches its devices in: its white-label's first host, over HTTPS (the
 * portal runs behind TLS in production). A white-label without hosts (the embedded default answers
 * any host) gives no link: the server cannot know under which name it is reached (decision 033).
 */
export function portalUrl(host: string | null): string | null {
  return host ? `https://${host}` : null;
}

/**
 * The Message of one notification on one channel, waiting for its delivery job. A mail's content
 * is its subject, a blank line and its body (the job splits it again).
 */
function message(
  deviceId: number,
  channel: NotificationChannel,
  contact: { cellNumber: string | null; email: string | null },
  text: { sms: string; subject: string; body: string },
): typeof messages.$inferInsert {
  return {
    deviceId,
    type: channel,
    direction: 'out',
    mode: 'systemToExternal',
    status: 'created',
    content: channel === 'sms' ? text.sms : `${text.subject}\n\n${text.body}`,
    toIdent: channel === 'sms' ? gatewayNumber(contact.cellNumber!) : contact.email,
    toType: channel === 'sms' ? 'cell_number' : 'email',
  };
}

/** A contact's cell number as gateways take it: separators removed, a 00 prefix written as +. */
export function gatewayNumber(cellNumber: string): string {
  const compact = cellNumber.replace(/[\s()/-]/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}
