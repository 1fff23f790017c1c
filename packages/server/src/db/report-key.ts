import type { ReportV1 } from '@tankportal/shared/protocols/report';

/**
 * The message key that recognises a report sent again: its device, time and message id. A device
 * whose message counter starts again (power cut, firmware update) sends old message ids at new
 * times, which are new reports. The message id comes last and the parts before it have fixed
 * forms (a number, a time in UTC to the millisecond), so two different reports never share a key.
 */
export function reportKey(deviceId: number, report: Pick<ReportV1, 'measuredAt' | 'messageId'>): string {
  const at = Date.parse(report.measuredAt);
  // A time no date-time would be refused by the database anyway (and the report with it, alone).
  const time = Number.isNaN(at) ? report.measuredAt : new Date(at).toISOString();
  return `report/${deviceId}/${time}/${report.messageId}`;
}
