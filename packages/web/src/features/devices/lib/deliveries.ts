import type { Locale } from '@tankportal/shared/constants';
import type { Delivery } from '@tankportal/shared/schemas/tank-health';

type Quantities = Pick<Delivery, 'quantity' | 'quantity15' | 'ticketQuantity' | 'difference'>;

/**
 * A delivery falls short when the tank measured less than the ticket says by more than this share
 * of the ticket: probes and temperature correction leave about half a percent of doubt.
 */
export const SHORTFALL_SHARE = 0.01;

/** What the tank measured, at 15 °C where known: the figure the difference compares. */
export const measuredQuantity = (delivery: Pick<Quantities, 'quantity' | 'quantity15'>) =>
  delivery.quantity15 ?? delivery.quantity;

/** Measured less than the ticket by more than SHORTFALL_SHARE of it. */
export function isShortfall(delivery: Pick<Quantities, 'ticketQuantity' | 'difference'>): boolean {
  const { ticketQuantity, difference } = delivery;
  return ticketQuantity !== null && difference !== null && -difference > ticketQuantity * SHORTFALL_SHARE;
}

/** The difference as a share of the ticket (-0.02 for 2 % short); null without a ticket above 0. */
export function differenceShare(delivery: Pick<Quantities, 'ticketQuantity' | 'difference'>): number | null {
  const { ticketQuantity, difference } = delivery;
  return ticketQuantity && difference !== null ? difference / ticketQuantity : null;
}

const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  de: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/**
 * A quantity typed in the user's language: empty is null (no ticket), "2.500,5" and "2500,5" in
 * German, "2,500.5" in English; a dot alone in German ("2500.5") is taken as the decimal point,
 * as nobody groups thousands without a decimal comma in a four-digit number ("2.500" is 2500).
 * Anything else is NaN, which the shared schema calls invalid.
 */
export function parseQuantity(text: string, locale: Locale): number | null {
  const trimmed = text.replace(/\s/g, '');
  if (trimmed === '') return null;
  const { group, decimal } = SEPARATORS[locale];
  const grouped = new RegExp(`^-?\\d{1,3}(\\${group}\\d{3})+(\\${decimal}\\d+)?$`);
  let plain: string;
  if (grouped.test(trimmed)) plain = trimmed.split(group).join('').replace(decimal, '.');
  else if (locale === 'de') plain = trimmed.replace(',', '.');
  else plain = trimmed;
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}

/** A stored quantity as the field shows it to edit: no grouping, the language's decimal sign. */
export function quantityInput(value: number | null, locale: Locale): string {
  if (value === null) return '';
  const text = String(Math.round(value * 1000) / 1000);
  return locale === 'de' ? text.replace('.', ',') : text;
}

/** The ticket form's body from its text (the shared schema checks it: min 0, a number). */
export const ticketBodyOf = (text: string, locale: Locale) => ({
  ticketQuantity: parseQuantity(text, locale),
});
