import { allowedChannels, NOTIFICATION_EVENT_NAMES } from '@tankportal/shared/notifications';
import type { Recipient } from '@tankportal/shared/schemas/notification-recipients';
import { type ContactRow, notificationRecipients } from '../db/schema.ts';
import { presentContact } from './contact.ts';

export type RecipientRow = typeof notificationRecipients.$inferSelect;

/**
 * A recipient with every event in the fixed order; an event it has not set shows no channels and
 * no throttle, so that the form always has all four rows.
 */
export function presentRecipient(row: RecipientRow, contact: ContactRow, deviceCount: number): Recipient {
  return {
    id: row.id,
    contact: presentContact(contact, deviceCount),
    events: NOTIFICATION_EVENT_NAMES.map((name) => {
      const stored = row.events.find((event) => event.name === name);
      return {
        name,
        channels: stored?.channels ?? [],
        notifyOnceIn: stored?.notifyOnceIn ?? null,
        allowedChannels: allowedChannels(name, contact),
      };
    }),
  };
}
