import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import type { AuditEntryRow } from '../repositories/audit-log.ts';

export function presentAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    user: { id: row.userId, username: row.username },
    realUser: row.realUsername === null ? null : { id: row.realUserId, username: row.realUsername },
    address: row.address,
    entityType: row.entityType,
    entityId: row.entityId,
    action: row.action,
    changes: row.changes,
  };
}
