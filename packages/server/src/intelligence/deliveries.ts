/**
 * Deliveries: each refill in a level sensor's readings as a record — when, how much came
 * in, the level before and after, and for heating oil the quantity at 15 °C. Pure: readings in,
 * deliveries out; intelligence/sensor-checks.ts keeps them in the database.
 */
import { isRefill } from '../sensor-logic/consumption.ts';

export interface TemperatureLevelPoint {
  at: Date;
  volume: number;
  /** The content's temperature in °C where the probe measures one. */
  temperature: number | null;
}

export interface DetectedDelivery {
  /** The last reading before the rise. */
  startedAt: Date;
  /** The first reading after the rise ended: the delivery's time and its key. */
  deliveredAt: Date;
  levelBefore: number;
  levelAfter: number;
  quantity: number;
  /** Heating oil with a known temperature: levelAfter − levelBefore, each corrected to 15 °C. */
  quantity15: number | null;
  temperature: number | null;
}

/**
 * Volume expansion coefficient of heating oil EL and diesel per kelvin at 15 °C (DIN 51757 /
 * ASTM D1250 table 54B for a density of about 0.84 kg/l). Other contents are not corrected: the
 * dealer's ticket for them is not temperature-compensated either.
 */
export const OIL_EXPANSION_PER_K = 0.00084;

/** Contents whose delivery is billed at 15 °C (the German "temperaturkompensierte Menge"). */
export const isCompensatedContent = (contentType: string | null) =>
  contentType !== null && (contentType.startsWith('heating_oil') || contentType.startsWith('diesel'));

/** A volume measured at `temperature` °C as the volume it would fill at 15 °C. */
export function volumeAt15(volume: number, temperature: number): number {
  return volume * (1 - OIL_EXPANSION_PER_K * (temperature - 15));
}

/** Quantities to a tenth of the unit: what a probe resolves, without floating-point tails. */
const tenths = (value: number) => Math.round(value * 10) / 10;

/**
 * The refills of a series: a rise of at least the filling-recognition share of the capacity
 * between consecutive readings (the rule the consumption and the data flow use, so every page
 * counts the same refills). A truck still pumping while the device reports gives several rising
 * readings in a row: they are one delivery, from the last reading before the first rise to the
 * reading where the level stops rising.
 */
export function detectDeliveries(
  points: readonly TemperatureLevelPoint[],
  options: { capacity: number; fillingRecognitionInterval: number; compensate: boolean },
): DetectedDelivery[] {
  const { capacity, fillingRecognitionInterval } = options;
  if (!(capacity > 0) || fillingRecognitionInterval <= 0) return [];
  // Half the recognition step still counts as "the truck is still pumping" after a recognised rise.
  const stillRising = (from: number, to: number) =>
    isRefill(from, to, capacity, fillingRecognitionInterval / 2);
  const step = (capacity * fillingRecognitionInterval) / 100;
  const returnsFromDip = (earlier: number, dip: number, after: number) =>
    earlier - dip >= step && Math.abs(after - earlier) <= step / 2;
  const deliveries: DetectedDelivery[] = [];
  let previousEnd = 0;
  for (let i = 1; i < points.length; i++) {
    if (!isRefill(points[i - 1].volume, points[i].volume, capacity, fillingRecognitionInterval)) continue;
    let start = i - 1;
    while (start > previousEnd && stillRising(points[start - 1].volume, points[start].volume)) start--;
    let end = i;
    while (end + 1 < points.length && stillRising(points[end].volume, points[end + 1].volume)) end++;
    const before = points[start];
    const after = points[end];
    // The level coming back after one implausible low reading (a jump) is no delivery.
    if (start > 0 && returnsFromDip(points[start - 1].volume, before.volume, after.volume)) continue;
    const temperature = after.temperature ?? before.temperature;
    const quantity15 =
      options.compensate && temperature !== null
        ? volumeAt15(after.volume, temperature) - volumeAt15(before.volume, before.temperature ?? temperature)
        : null;
    deliveries.push({
      startedAt: before.at,
      deliveredAt: after.at,
      levelBefore: before.volume,
      levelAfter: after.volume,
      quantity: tenths(after.volume - before.volume),
      quantity15: quantity15 === null ? null : tenths(quantity15),
      temperature,
    });
    previousEnd = end;
    i = end;
  }
  return deliveries;
}
