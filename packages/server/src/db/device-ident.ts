import type { devices } from './schema.ts';

type DeviceRow = typeof devices.$inferSelect;

/** The ident a device reports with, by its ident type. */
export function identOf(
  device: Pick<DeviceRow, 'identType' | 'iccid' | 'cellNumber' | 'identCode' | 'thingName'>,
): string | null {
  switch (device.identType) {
    case 'iccid':
      return device.iccid;
    case 'cell_number':
      return device.cellNumber;
    case 'net_ident_code':
      return device.identCode;
    case 'thing_name':
      return device.thingName;
  }
}
