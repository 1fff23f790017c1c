import type { IdentType, MessageType } from '@tankportal/shared/devices';
import type { ReportV1 } from '@tankportal/shared/protocols/report';
import type { DeviceReport } from '../commands/record-report.ts';

// A report on its way through ingest, shared by the report-by-report entry (store-report.ts), the
// batcher and the batch store (store-batch.ts); a module of its own so that those three do not
// import each other in a circle.

/** Who sent a report, in the terms of the message log. */
export interface Sender {
  type: Exclude<MessageType, 'mail'>;
  identType: IdentType;
  ident: string;
}

export interface IngestItem {
  deviceId: number;
  sender: Sender;
  report: ReportV1;
  content: string;
}

export interface IngestResult {
  duplicate: boolean;
  stored: number;
  /** The device was deleted after its sender was looked up: nothing stored. */
  deviceGone?: boolean;
  /**
   * The database refused the report although it passed validation (ingest-batcher.ts): nothing of
   * it stored, the reason in the database's words. Never set by `storeBatch` itself.
   */
  refused?: string;
}

export function toDeviceReport(report: ReportV1): DeviceReport {
  return {
    measuredAt: new Date(report.measuredAt),
    readings: report.sensors,
    alarmCodes: report.alarms,
    simCreditQty: report.simCredit,
    batteryCharge: report.battery,
    location: report.location,
  };
}
