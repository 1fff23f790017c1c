import { contactHandle, type Contact } from '@tankportal/shared/schemas/contacts';
import type { ContactRow } from '../db/schema.ts';

/** A contact of the actor's contact book; deviceCount is the number of its recipient rows. */
export function presentContact(row: ContactRow, deviceCount: number): Contact {
  return {
    id: row.id,
    handle: contactHandle(row),
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    cellNumber: row.cellNumber,
    email: row.email,
    language: row.language,
    comment: row.comment,
    deviceCount,
  };
}
