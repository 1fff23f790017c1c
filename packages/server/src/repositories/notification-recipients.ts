import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { contacts, notificationRecipients } from '../db/schema.ts';
import { contactDeviceCount } from './contacts.ts';

/** The device's recipients (or the one), each with its contact and that contact's device count. */
export const recipientRowsOf = (db: Db, deviceId: number, recipientId?: number) =>
  db
    .select({
      recipient: notificationRecipients,
      contact: contacts,
      deviceCount: contactDeviceCount,
    })
    .from(notificationRecipients)
    .innerJoin(contacts, eq(contacts.id, notificationRecipients.contactId))
    .where(
      and(
        eq(notificationRecipients.deviceId, deviceId),
        recipientId === undefined ? undefined : eq(notificationRecipients.id, recipientId),
      ),
    );

export type RecipientWithContact = Awaited<ReturnType<typeof recipientRowsOf>>[number];
