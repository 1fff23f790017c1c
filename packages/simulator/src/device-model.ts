import type { DemoDevice } from '@tankportal/shared/demo-fleet';

export interface SimulatedReport {
  /** Unique per device and run: the protocols' message id (SMS: digits only). */
  messageId: string;
  measuredAt: Date;
  sensors: { sequence: number; value: number; temperature: number }[];
  alarms?: string[];
  simCredit?: number;
}

/**
 * One simulated installation: a tank that empties with the heating season, is refilled below a
 * quarter, reports its temperature, now and then an alarm, and (SMS devices) its SIM credit.
 */
export class SimulatedDevice {
  readonly device: DemoDevice;
  private level: number;
  private credit = 15;
  private sent = 0;
  private readonly capacity = 10_000;
  private readonly random: () => number;
  private readonly runId: number;

  constructor(device: DemoDevice, random: () => number, runId: number) {
    this.device = device;
    this.random = random;
    this.runId = runId;
    this.level = this.capacity * (0.3 + random() * 0.6);
  }

  nextReport(now: Date): SimulatedReport {
    this.sent++;
    const winter = Math.cos(((now.getUTCMonth() * 30.4 + now.getUTCDate() - 15) / 365) * 2 * Math.PI);
    this.level -= (5 + 20 * Math.max(0, winter)) * (0.5 + this.random());
    if (this.level < this.capacity * 0.25) this.level = this.capacity * (0.85 + this.random() * 0.1);
    const report: SimulatedReport = {
      // Run id and counter: a restarted simulator never reuses an id of an earlier run.
      messageId: String(this.runId * 100_000 + (this.sent % 100_000)),
      measuredAt: now,
      sensors: [
        {
          sequence: 1,
          value: Math.round(this.level * 10) / 10,
          temperature: Math.round((10 - 8 * winter + this.random() * 3) * 10) / 10,
        },
      ],
    };
    if (this.random() < Number(process.env.SIM_ALARM_RATE ?? 0.02)) report.alarms = ['e003'];
    if (this.device.type === 'sms') {
      this.credit = Math.max(0, this.credit - 0.09);
      report.simCredit = Math.round(this.credit * 100) / 100;
    }
    return report;
  }
}
