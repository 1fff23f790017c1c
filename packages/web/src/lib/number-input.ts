/** A typed text: trimmed, empty as null. */
export const textOrNull = (value: string): string | null => value.trim() || null;

/**
 * A typed decimal number (2500, 2.500,5 in German, 2,500.5 in English), null when empty; NaN when
 * it is no number (the server then answers `invalid` at the field, in the form's words).
 */
export function numberOrNull(value: string, locale: 'de' | 'en'): number | null {
  const trimmed = value.trim().replace(/\s/g, '');
  if (!trimmed) return null;
  const [thousands, decimal] = locale === 'de' ? ['.', ','] : [',', '.'];
  // A coordinate typed with a point in the German portal (51.1657) is meant as a decimal point.
  const normalised =
    locale === 'de' && !trimmed.includes(',') && /^-?\d+\.\d{1,2}$|^-?\d+\.\d{4,}$/.test(trimmed)
      ? trimmed
      : trimmed.split(thousands).join('').replace(decimal, '.');
  return /^-?\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : Number.NaN;
}

/** A number as the form shows it for editing: decimal comma in German, no thousands separators. */
export const numberText = (value: number | null | undefined, locale: 'de' | 'en'): string =>
  value === null || value === undefined
    ? ''
    : locale === 'de'
      ? String(value).replace('.', ',')
      : String(value);
