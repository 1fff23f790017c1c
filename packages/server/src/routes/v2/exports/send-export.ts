import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '@tankportal/shared/constants';
import type { ExportPlan } from '../../../commands/export-consumption.ts';
import { attachment, CONTENT_TYPES, createSheet, type SheetWriter } from '../../../commands/export-sheet.ts';

async function writeRows(rows: AsyncIterable<unknown[]>, sheet: SheetWriter) {
  for await (const row of rows) {
    if (sheet.stream.destroyed) return; // the download was abandoned
    await sheet.addRow(row as Parameters<SheetWriter['addRow']>[0]);
  }
  await sheet.finish();
}

/**
 * Answers an export as a download streamed while its rows are read: the reply starts at once, a
 * failure while writing ends the file abruptly (and is logged), an abandoned download stops it.
 */
export function sendExport(
  request: FastifyRequest,
  reply: FastifyReply,
  plan: ExportPlan,
  options: { format: 'csv' | 'xlsx'; locale: Locale; timeZone: string },
) {
  const sheet = createSheet({ ...options, sheetName: plan.sheetName, columns: plan.columns });
  writeRows(plan.rows, sheet).catch((error: Error) => {
    request.log.error({ err: error }, 'export failed while writing');
    sheet.abort(error);
  });
  return reply
    .header('content-disposition', attachment(`${plan.filename}.${options.format}`))
    .header('cache-control', 'no-store')
    .type(CONTENT_TYPES[options.format])
    .send(sheet.stream);
}
