import type { Locale } from '@tankportal/shared/constants';
import { auditActionText, auditChangesText, auditEntityText } from '@tankportal/shared/audit-texts';
import type { Executor } from '../db/client.ts';
import { auditEntriesForExport, type AuditFilter } from '../repositories/audit-log.ts';
import type { ExportPlan } from './export-consumption.ts';
import { exportLabels } from './export-labels.ts';
import type { Cell } from './export-sheet.ts';

/** The masters' selection of the record of changes as a spreadsheet, newest first. */
export function auditEntriesExport(db: Executor, filter: AuditFilter, locale: Locale): ExportPlan {
  const labels = exportLabels(locale);
  async function* rows(): AsyncIterable<Cell[]> {
    for await (const entry of auditEntriesForExport(db, filter))
      yield [
        entry.at,
        entry.username,
        entry.realUsername,
        entry.address,
        auditEntityText(locale, entry.entityType),
        entry.entityId,
        entry.deviceId,
        auditActionText(locale, entry.action),
        auditChangesText(locale, entry.changes),
      ];
  }
  return {
    filename: labels.fileChanges,
    sheetName: labels.sheetChanges,
    columns: [
      { header: labels.time, kind: 'datetime', width: 18 },
      { header: labels.username, kind: 'text', width: 18 },
      { header: labels.actingFor, kind: 'text', width: 18 },
      { header: labels.address, kind: 'text', width: 16 },
      { header: labels.entity, kind: 'text', width: 16 },
      { header: labels.id, kind: 'number', decimals: 0, width: 8 },
      { header: labels.deviceId, kind: 'number', decimals: 0, width: 8 },
      { header: labels.action, kind: 'text', width: 24 },
      { header: labels.changes, kind: 'text', width: 80 },
    ],
    rows: rows(),
  };
}
