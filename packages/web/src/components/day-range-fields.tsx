import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayField } from './day-field.tsx';
import { DAY_PATTERN } from '../lib/typed-day.ts';
import { useLocale } from '../lib/use-locale.ts';
import { dayErrors, type Days } from '../lib/day-range.ts';

/**
 * The time filter of a list (a message log, the record of changes): two days typed in the
 * portal's date format, taken once both are right; a wrong one (no day, a future day, the end
 * before the start) says why on its field and leaves the list as it was.
 */
export function DayRangeFields({ from, to, onChange }: Days & { onChange: (days: Days) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [days, setDays] = useState<Days>({ from, to });
  const errors = dayErrors(days);
  return (['from', 'to'] as const).map((bound) => {
    const error = errors[bound];
    return (
      <DayField
        key={bound}
        size="small"
        label={t(`day-range.${bound}`)}
        value={days[bound]}
        onChange={(value) => {
          const next = { ...days, [bound]: value };
          setDays(next);
          const wrong = dayErrors(next);
          if (!wrong.from && !wrong.to && (next.from !== from || next.to !== to)) onChange(next);
        }}
        error={!!error}
        helperText={error && t(`day-range.errors.${error}`, { pattern: DAY_PATTERN[locale] })}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ flex: '1 1 9rem' }}
      />
    );
  });
}
