import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { DayField } from '../../../components/day-field.tsx';
import { formatDay, today } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import {
  daysOf,
  deliveryDayOf,
  deliveryDayRange,
  DISPATCH_HORIZONS,
  DISPATCH_MAX_DAYS,
  DISPATCH_MIN_DAYS,
} from '../lib/dispatch.ts';

const isPreset = (days: number) => (DISPATCH_HORIZONS as readonly number[]).includes(days);

/**
 * The horizon: 7, 14 or 30 days as buttons, or any other whole number of days the API takes,
 * typed in and applied with Enter or the button; a wrong number says what is allowed. Keyed by
 * the horizon where it is used, so that the field follows a horizon chosen elsewhere (a button,
 * the URL).
 */
export function HorizonPicker({
  withinDays,
  onChange,
}: {
  withinDays: number;
  onChange: (days: number) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(isPreset(withinDays) ? '' : String(withinDays));
  const [invalid, setInvalid] = useState(false);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const days = daysOf(text);
    setInvalid(days === null);
    if (days !== null) onChange(days);
  };
  return (
    <>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={isPreset(withinDays) ? withinDays : null}
        onChange={(_event, days: number | null) => days !== null && onChange(days)}
        aria-label={t('dispatch.horizon')}
      >
        {DISPATCH_HORIZONS.map((days) => (
          <ToggleButton key={days} value={days}>
            {t('dispatch.days', { count: days })}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box
        component="form"
        noValidate
        onSubmit={apply}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
        aria-label={t('dispatch.otherDays.label')}
      >
        <TextField
          size="small"
          label={t('dispatch.otherDays.label')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          error={invalid}
          helperText={
            invalid
              ? t('dispatch.otherDays.invalid', { min: DISPATCH_MIN_DAYS, max: DISPATCH_MAX_DAYS })
              : ' '
          }
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          sx={{ width: 160 }}
        />
        <Button type="submit" variant="outlined">
          {t('dispatch.otherDays.apply')}
        </Button>
      </Box>
    </>
  );
}

/**
 * The planned delivery day of the second quantity: from today to a year ahead; empty is the
 * horizon's last day. A day out of range says which days are allowed and is not applied.
 */
export function DeliveryDayField({
  deliveryOn,
  onChange,
}: {
  deliveryOn: string | null;
  onChange: (day: string | null) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [text, setText] = useState(deliveryOn ?? '');
  const [invalid, setInvalid] = useState(false);
  const now = today();
  const { min, max } = deliveryDayRange(now);
  // DayField hands on yyyy-MM-dd once the text reads as a day, else the text as typed.
  const change = (value: string) => {
    setText(value);
    const day = value === '' ? null : deliveryDayOf(value, now);
    setInvalid(value !== '' && day === null);
    if (value === '' || day !== null) onChange(day);
  };
  return (
    <DayField
      size="small"
      label={t('dispatch.deliveryOn.label')}
      value={text}
      onChange={change}
      error={invalid}
      helperText={
        invalid
          ? t('dispatch.deliveryOn.invalid', { min: formatDay(min, locale), max: formatDay(max, locale) })
          : t('dispatch.deliveryOn.hint')
      }
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ width: 220 }}
    />
  );
}
