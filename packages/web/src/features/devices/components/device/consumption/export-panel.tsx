import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { endOfDay, startOfMonth, subMonths } from 'date-fns';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { TFunction } from 'i18next';
import type { FieldError } from '@tankportal/shared/field-errors';
import { ApiError } from '../../../../../lib/api-client.ts';
import { errorText } from '../../../../../lib/error-texts.ts';
import { fieldErrorText } from '../../../../../lib/field-errors.ts';
import { formatDate, parseDate } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import {
  CONSUMPTION_EXPORT_FORMATS,
  CONSUMPTION_EXPORT_TYPES,
  downloadConsumptionExport,
  type ConsumptionExportFormat,
  type ConsumptionExportType,
} from '../../../api/consumption-export.ts';

type DateField = 'from' | 'to';
type DateErrors = Partial<Record<DateField, string>>;

/** The two days, or the texts of what is wrong with them (not in the future). */
function checkDates(
  text: Record<DateField, string>,
  locale: 'de' | 'en',
  t: TFunction,
  now = new Date(),
): { ok: true; from: Date; to: Date } | { ok: false; errors: DateErrors } {
  const errors: DateErrors = {};
  const days: Partial<Record<DateField, Date>> = {};
  for (const field of ['from', 'to'] as const) {
    if (!text[field].trim()) errors[field] = t('validation.required');
    else {
      const day = parseDate(text[field], locale);
      if (!day) errors[field] = t('device.export.errors.date', { pattern: t('device.export.pattern') });
      else if (day > endOfDay(now)) errors[field] = t('device.export.errors.future');
      else days[field] = day;
    }
  }
  if (days.from && days.to && days.from > days.to) errors.to = t('device.export.errors.toBeforeFrom');
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, from: days.from!, to: days.to! };
}

/** The server's field errors on from/to in the panel's words. */
function serverDateErrors(error: unknown, t: TFunction): DateErrors | null {
  if (!(error instanceof ApiError) || !error.body?.fieldErrors?.length) return null;
  const errors: DateErrors = {};
  for (const fieldError of error.body.fieldErrors as FieldError[]) {
    if (fieldError.path !== 'from' && fieldError.path !== 'to') continue;
    errors[fieldError.path] =
      fieldError.code === 'max'
        ? t('device.export.errors.future')
        : fieldError.code === 'min'
          ? t('device.export.errors.toBeforeFrom')
          : fieldErrorText(t, fieldError);
  }
  return Object.keys(errors).length ? errors : null;
}

/**
 * Simple (per month) or extended (every measurement) consumption of the device as csv or xlsx,
 * for a span of days typed in the locale's date format.
 */
export function ExportPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const [type, setType] = useState<ConsumptionExportType>('simple_consumption');
  const [text, setText] = useState<Record<DateField, string>>(() => ({
    from: formatDate(startOfMonth(subMonths(new Date(), 12)), locale),
    to: formatDate(new Date(), locale),
  }));
  const [errors, setErrors] = useState<DateErrors>({});
  // The buttons are not locked for a fixed second after a click: the clicked one stays
  // "preparing…" (and both locked) until the file is there, however long that takes.
  const [preparing, setPreparing] = useState<ConsumptionExportFormat | null>(null);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const start = async (format: ConsumptionExportFormat) => {
    const checked = checkDates(text, locale, t);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setPreparing(format);
    try {
      await downloadConsumptionExport({ deviceId, type, format, locale, from: checked.from, to: checked.to });
    } catch (error) {
      const fieldErrors = serverDateErrors(error, t);
      if (fieldErrors) setErrors(fieldErrors);
      else enqueueSnackbar(errorText(error, t), { variant: 'error' });
    } finally {
      if (mounted.current) setPreparing(null);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="consumption-export" sx={{ p: 2 }}>
      <Typography id="consumption-export" variant="h6" component="h2" gutterBottom>
        {t('device.export.title')}
      </Typography>
      <Stack spacing={2}>
        <RadioGroup
          row
          value={type}
          onChange={(event) => setType(event.target.value as ConsumptionExportType)}
          aria-label={t('device.export.type')}
        >
          {CONSUMPTION_EXPORT_TYPES.map((option) => (
            <FormControlLabel
              key={option}
              value={option}
              control={<Radio />}
              label={t(`device.export.types.${option}`)}
            />
          ))}
        </RadioGroup>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {(['from', 'to'] as const).map((field) => (
            <TextField
              key={field}
              size="small"
              label={t(`device.export.${field}`)}
              placeholder={t('device.export.pattern')}
              value={text[field]}
              onChange={(event) => setText((current) => ({ ...current, [field]: event.target.value }))}
              error={!!errors[field]}
              helperText={errors[field] ?? t('device.export.pattern')}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          ))}
        </Stack>
        <Stack direction="row" spacing={1}>
          {CONSUMPTION_EXPORT_FORMATS.map((format) => (
            <Button
              key={format}
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={preparing !== null && preparing !== format}
              loading={preparing === format}
              loadingPosition="start"
              onClick={() => void start(format)}
            >
              {preparing === format ? t('device.export.preparing') : t(`device.export.formats.${format}`)}
            </Button>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
