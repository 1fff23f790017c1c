import type { NotificationEventName } from '@tankportal/shared/notifications';
import type { AlarmNotice, DeviceEvent, NotifiedDevice } from './events.ts';

/**
 * The notification events of one transaction, gathered per device while its reports are stored;
 * the outbox (outbox.ts, a GatheredEvents itself) writes them once at the end. Gathering writes
 * nothing and calls nothing, so both ingest paths add to it without reaching the outbox before
 * their transaction's one flush.
 *
 * Several reports of one device in one transaction (a batch, a backlog) give one notification per
 * event: alarms are merged (opened by any of them counts as new), the latest threshold and SIM
 * state win.
 */
export class GatheredEvents {
  protected readonly pending = new Map<
    number,
    { device: NotifiedDevice; events: Map<NotificationEventName, DeviceEvent> }
  >();

  add(device: NotifiedDevice, event: DeviceEvent | null) {
    if (!event || !device.active) return;
    let entry = this.pending.get(device.id);
    if (!entry) {
      entry = { device, events: new Map() };
      this.pending.set(device.id, entry);
    }
    const before = entry.events.get(event.name);
    if (before?.name === 'alarm' && event.name === 'alarm') {
      const merged = new Map<string, AlarmNotice>();
      for (const alarm of [...before.alarms, ...event.alarms]) {
        const key = `${alarm.type}:${alarm.sensor?.sequence ?? ''}`;
        const earlier = merged.get(key);
        merged.set(key, { ...alarm, opened: alarm.opened || (earlier?.opened ?? false) });
      }
      entry.events.set('alarm', { name: 'alarm', at: event.at, alarms: [...merged.values()] });
    } else if (before?.name === 'order' && event.name === 'order') {
      // Each order's change is news of its own: several in one transaction go out together.
      entry.events.set('order', { name: 'order', at: event.at, orders: [...before.orders, ...event.orders] });
    } else {
      entry.events.set(event.name, event);
    }
  }

  /** Nothing added: a flush would write nothing (the caller may skip its transaction). */
  get isEmpty(): boolean {
    return this.pending.size === 0;
  }

  /** Shorthand for the ingest paths: one alarm a report opened or kept open. */
  addAlarm(device: NotifiedDevice, alarm: AlarmNotice | null, at: Date) {
    if (alarm) this.add(device, { name: 'alarm', at, alarms: [alarm] });
  }
}
