import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import { unitSymbol } from '@tankportal/shared/units';
import { formatDateTime, formatNumber } from '../../../../../lib/format.ts';
import type { DeliveryView } from '../../../api/deliveries.ts';
import { unitFractionDigits } from '../../../../../lib/sensor-totals.ts';
import type { DeliveryMark } from './process-chart-options.ts';

/** A quantity with its unit's usual digits and its symbol ("3.782 l"). */
export const quantityText = (value: number, unit: string, locale: Locale) =>
  `${formatNumber(value, locale, unitFractionDigits(unit))} ${unitSymbol(unit)}`;

/** A difference with its sign ("+12 l", "−40 l"). */
export const signedQuantityText = (value: number, unit: string, locale: Locale) =>
  `${value > 0 ? '+' : value < 0 ? '−' : '±'}${quantityText(Math.abs(value), unit, locale)}`;

/** The level before and after ("1.631 l → 5.413 l"). */
export const levelsText = (delivery: DeliveryView, locale: Locale) =>
  `${quantityText(delivery.levelBefore, delivery.unit, locale)} → ${quantityText(delivery.levelAfter, delivery.unit, locale)}`;

/** The delivered quantity, with the quantity at 15 °C where there is one. */
export function deliveredText(delivery: DeliveryView, locale: Locale, t: TFunction): string {
  const quantity = quantityText(delivery.quantity, delivery.unit, locale);
  return delivery.quantity15 === null
    ? quantity
    : `${quantity} (${t('deliveries.at15', { quantity: quantityText(delivery.quantity15, delivery.unit, locale) })})`;
}

/** Each delivery as a pin on the curve, its tooltip saying when, how much and the levels. */
export function deliveryMarks(
  deliveries: readonly DeliveryView[],
  locale: Locale,
  t: TFunction,
): DeliveryMark[] {
  return deliveries.map((delivery) => ({
    sequence: delivery.sequence,
    time: new Date(delivery.deliveredAt).getTime(),
    lines: [
      t('deliveries.markTitle', {
        sensor: delivery.sensorName,
        time: formatDateTime(delivery.deliveredAt, locale),
      }),
      deliveredText(delivery, locale, t),
      t('deliveries.levels', { levels: levelsText(delivery, locale) }),
    ],
  }));
}
