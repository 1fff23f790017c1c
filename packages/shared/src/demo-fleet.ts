import type { DeviceType, IdentType } from './devices.ts';

/**
 * Layout of the demo fleet: which device number has which type and ident. The server seeds it; the
 * simulator drives the same devices over their real protocols.
 */
export const DEMO_FLEET_TYPES: { type: DeviceType; identType: IdentType; count: number }[] = [
  { type: 'sms', identType: 'cell_number', count: 24 },
  { type: 'sms', identType: 'iccid', count: 6 },
  { type: 'net', identType: 'net_ident_code', count: 10 },
  { type: 'iot', identType: 'thing_name', count: 12 },
  { type: 'lx_iot', identType: 'iccid', count: 8 },
];

/** The secret of every demo device (net reports, MQTT password): demo installations only. */
export const DEMO_DEVICE_SECRET = 'tankportal';

export interface DemoDevice {
  number: number;
  type: DeviceType;
  identType: IdentType;
  ident: string;
  /** Its public status page is switched on (the token is generated when the fleet is seeded). */
  publicPage: boolean;
}

export function demoIdent(type: DeviceType, identType: IdentType, number: number): string {
  const padded = String(number).padStart(4, '0');
  if (identType === 'cell_number') return `+49170555${padded}`;
  if (identType === 'iccid') return `${type === 'lx_iot' ? '894910' : '894900'}000000000${padded}`;
  if (identType === 'net_ident_code') return `NET-DEMO-${padded}`;
  return `iot-demo-${padded}`;
}

/** Every device of the demo fleet, numbered from 1. */
export function demoFleet(): DemoDevice[] {
  const fleet: DemoDevice[] = [];
  for (const { type, identType, count } of DEMO_FLEET_TYPES) {
    for (let i = 0; i < count; i++) {
      const number = fleet.length + 1;
      fleet.push({
        number,
        type,
        identType,
        ident: demoIdent(type, identType, number),
        publicPage: number % 10 === 1,
      });
    }
  }
  return fleet;
}
