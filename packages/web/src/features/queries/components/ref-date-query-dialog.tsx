import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import type { TFunction } from 'i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import {
  DAILY_INTERVALS,
  INTRADAY_INTERVALS,
  MONTHLY_INTERVALS,
  REF_DATE_INTERVAL_TYPES,
  REF_DATE_OLDER_THAN,
  REF_DATE_QUERY_TIME_STEP_MINUTES,
  refDateQueryBody,
  type RefDateIntervalType,
} from '@tankportal/shared/schemas/ref-date-queries';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { TimeField } from '../../../components/time-field.tsx';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { pathId } from '../../../lib/path-id.ts';
import { intervalsText, olderThanText } from '../../../lib/ref-date-texts.ts';
import {
  useCreateRefDateQuery,
  useDeleteRefDateQuery,
  useRefDateQuery,
  useUpdateRefDateQuery,
  type RefDateQueryBody,
  type RefDateQueryView,
} from '../../../lib/api/ref-date-queries.ts';
import { deviceIdErrors } from '../lib/device-id-errors.ts';
import {
  isDirty,
  isOffStep,
  refDateBody,
  refDateFormValues,
  type DailyInterval,
  type IntradayInterval,
  type MonthlyInterval,
  type RefDateFormValues,
} from '../lib/ref-date-form.ts';
import { DeviceChoice } from './device-choice.tsx';

export const REF_DATE_QUERIES_PATH = '/devices/ref-date-queries';

/** The form's messages per field; `devices` also names the devices the server refused. */
type FormErrors = Partial<Record<'intervals' | 'queryAt' | 'olderThan' | 'devices' | 'other', string>>;

/** Field errors (the shared schema's or the server's) onto the form's fields, in the user's words. */
function formErrorsOf(
  fieldErrors: Pick<FieldError, 'path' | 'code' | 'args'>[],
  refused: number[],
  values: RefDateFormValues,
  t: TFunction,
): FormErrors {
  const errors: FormErrors = {};
  const add = (field: keyof FormErrors, text: string) => {
    errors[field] ??= text;
  };
  for (const fieldError of fieldErrors) {
    const field = fieldError.path.split('.')[0];
    // An empty choice of days says to choose a day (the reason `weekdays`), not "must not be empty".
    if (field === 'intervals') add('intervals', fieldErrorText(t, fieldError));
    else if (field === 'queryAt')
      add(
        'queryAt',
        (fieldError.code as string) === 'step' || isOffStep(values.queryAt)
          ? t('validation.reasons.step', { step: REF_DATE_QUERY_TIME_STEP_MINUTES })
          : fieldErrorText(t, fieldError),
      );
    else if (field === 'olderThan') add('olderThan', fieldErrorText(t, fieldError));
    else if (field === 'deviceIds') add('devices', fieldErrorText(t, fieldError));
    else add('other', fieldErrorText(t, fieldError));
  }
  if (refused.length)
    errors.devices = t('refDateQueries.errors.refused', { ids: refused.join(', '), count: refused.length });
  return errors;
}

/** The shared schema's verdict on the body (the same rules as the server's), null when it passes. */
function checkLocally(values: RefDateFormValues, t: TFunction): FormErrors | null {
  const parsed = refDateQueryBody.safeParse(refDateBody(values));
  if (parsed.success) return null;
  return formErrorsOf(parsed.error.issues.map(toFieldError), [], values, t);
}

/** /devices/ref-date-queries/new */
export function CreateRefDateQueryDialog() {
  const { t } = useTranslation();
  const create = useCreateRefDateQuery();
  return (
    <RefDateQueryForm
      title={t('refDateQueries.new')}
      save={create}
      savedText={t('refDateQueries.responses.created')}
    />
  );
}

/** /devices/ref-date-queries/{id}: one that is none, or does not load, leads back to the list. */
export function EditRefDateQueryDialog({ segment }: { segment: string }) {
  const { t } = useTranslation();
  const queryId = pathId(segment);
  const query = useRefDateQuery(queryId);
  return (
    <EditDialogLoader
      query={queryId === null ? null : query}
      closeTo={REF_DATE_QUERIES_PATH}
      notFoundText={t('refDateQueries.notFound')}
    >
      {(loaded) => <EditRefDateQueryForm query={loaded} />}
    </EditDialogLoader>
  );
}

function EditRefDateQueryForm({ query }: { query: RefDateQueryView }) {
  const { t } = useTranslation();
  const update = useUpdateRefDateQuery(query.id);
  return (
    <RefDateQueryForm
      title={t('refDateQueries.edit')}
      query={query}
      save={update}
      savedText={t('refDateQueries.responses.updated')}
    />
  );
}

interface SaveMutation {
  mutate: (
    body: RefDateQueryBody,
    options: { onSuccess: () => void; onError: (error: unknown) => void },
  ) => void;
  isPending: boolean;
}

/**
 * A reference-date query: the interval type decides which interval
 * choice shows; the query time is German time on a 5-minute grid; the member devices come from
 * those with REF_DATE_QUERY. Edits not saved are not lost without a question (FormDialog).
 */
function RefDateQueryForm({
  title,
  query,
  save,
  savedText,
}: {
  title: string;
  query?: RefDateQueryView;
  save: SaveMutation;
  savedText: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const devicesLabel = useId();
  const [initial] = useState(() => refDateFormValues(query));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [deleting, setDeleting] = useState(false);
  const close = () => void navigate(REF_DATE_QUERIES_PATH);
  const dirty = isDirty(initial, values);

  const change = (patch: Partial<RefDateFormValues>, ...cleared: (keyof FormErrors)[]) => {
    setValues((current) => ({ ...current, ...patch }));
    if (cleared.some((field) => errors[field]))
      setErrors((current) => {
        const next = { ...current };
        for (const field of cleared) delete next[field];
        return next;
      });
  };

  const submit = () => {
    const local = checkLocally(values, t);
    if (local) {
      setErrors(local);
      return;
    }
    const body = refDateBody(values);
    setErrors({});
    save.mutate(body, {
      onSuccess: () => {
        enqueueSnackbar(savedText, { variant: 'success' });
        close();
      },
      onError: (error) => {
        const found = deviceIdErrors(error, body.deviceIds);
        if (found) setErrors(formErrorsOf(found.others, found.refused, values, t));
      },
    });
  };

  return (
    <>
      <FormDialog
        title={title}
        maxWidth="md"
        onSubmit={submit}
        onClose={close}
        dirty={dirty}
        testId="ref-date-query"
        summary={errors.other && <Alert severity="error">{errors.other}</Alert>}
        actions={
          <>
            {query && (
              <Button color="error" onClick={() => setDeleting(true)} sx={{ mr: 'auto' }}>
                {t('refDateQueries.delete')}
              </Button>
            )}
            <Button
              type="submit"
              variant="contained"
              disabled={save.isPending}
              data-testid="ref-date-query-save"
            >
              {t('common.save')}
            </Button>
          </>
        }
      >
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {query && (
            <Typography variant="body2" color="text.secondary" data-testid="ref-date-query-owner">
              {t('refDateQueries.owner', { username: query.username })}
            </Typography>
          )}
          <IntervalFields
            values={values}
            error={errors.intervals}
            onChange={(patch) => change(patch, 'intervals')}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TimeField
              label={t('refDateQueries.fields.queryAt')}
              value={values.queryAt}
              onChange={(queryAt) => change({ queryAt }, 'queryAt')}
              error={!!errors.queryAt}
              helperText={errors.queryAt ?? t('refDateQueries.fields.queryAtHint')}
              required
              sx={{ flex: 1 }}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              select
              label={t('refDateQueries.fields.olderThan')}
              value={values.olderThan}
              onChange={(event) => change({ olderThan: Number(event.target.value) }, 'olderThan')}
              error={!!errors.olderThan}
              helperText={errors.olderThan ?? t('refDateQueries.fields.olderThanHint')}
              sx={{ flex: 1 }}
            >
              {REF_DATE_OLDER_THAN.map((seconds) => (
                <MenuItem key={seconds} value={seconds}>
                  {olderThanText(seconds, t)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <FormControlLabel
            control={
              <Switch
                checked={values.active}
                onChange={(event) => change({ active: event.target.checked })}
              />
            }
            label={t('refDateQueries.fields.active')}
          />
          <FormControl component="fieldset" error={!!errors.devices} sx={{ minWidth: 0 }}>
            <FormLabel component="legend" id={devicesLabel} sx={{ mb: 1 }}>
              {t('refDateQueries.fields.devices')}
            </FormLabel>
            <DeviceChoice
              permission="REF_DATE_QUERY"
              value={values.deviceIds}
              onChange={(deviceIds) => change({ deviceIds }, 'devices')}
              error={errors.devices}
              labelledBy={devicesLabel}
            />
          </FormControl>
        </Stack>
      </FormDialog>
      {deleting && query && (
        <DeleteRefDateQueryDialog query={query} onClose={() => setDeleting(false)} onDeleted={close} />
      )}
    </>
  );
}

/** The interval type and the choice of that type, with "required" under the choice shown. */
function IntervalFields({
  values,
  error,
  onChange,
}: {
  values: RefDateFormValues;
  error: string | undefined;
  onChange: (patch: Partial<RefDateFormValues>) => void;
}) {
  const { t } = useTranslation();
  const typeLabel = useId();
  const choiceLabel = useId();
  const type = values.intervalType;
  return (
    <>
      <FormControl>
        <FormLabel id={typeLabel}>{t('refDateQueries.fields.intervalType')}</FormLabel>
        <RadioGroup
          row
          aria-labelledby={typeLabel}
          value={type}
          onChange={(event) => onChange({ intervalType: event.target.value as RefDateIntervalType })}
        >
          {REF_DATE_INTERVAL_TYPES.map((value) => (
            <FormControlLabel
              key={value}
              value={value}
              control={<Radio />}
              label={t(`refDateQueries.intervalTypes.${value}`)}
            />
          ))}
        </RadioGroup>
      </FormControl>
      <FormControl component="fieldset" error={!!error} data-testid={`intervals-${type}`}>
        <FormLabel component="legend" id={choiceLabel}>
          {t(`refDateQueries.fields.${type}`)}
        </FormLabel>
        {type === 'daily' ? (
          <FormGroup row>
            {DAILY_INTERVALS.map((day) => (
              <FormControlLabel
                key={day}
                control={
                  <Checkbox
                    checked={values.daily.includes(day)}
                    onChange={(event) =>
                      onChange({
                        daily: DAILY_INTERVALS.filter((other) =>
                          other === day ? event.target.checked : values.daily.includes(other),
                        ) as DailyInterval[],
                      })
                    }
                  />
                }
                label={t(`refDateQueries.days.${day}`)}
              />
            ))}
          </FormGroup>
        ) : (
          <RadioGroup
            row
            aria-labelledby={choiceLabel}
            value={type === 'monthly' ? values.monthly : values.intraday}
            onChange={(event) =>
              onChange(
                type === 'monthly'
                  ? { monthly: event.target.value as MonthlyInterval }
                  : { intraday: event.target.value as IntradayInterval },
              )
            }
          >
            {(type === 'monthly' ? MONTHLY_INTERVALS : INTRADAY_INTERVALS).map((interval) => (
              <FormControlLabel
                key={interval}
                value={interval}
                control={<Radio />}
                label={t(`refDateQueries.choices.${interval}`)}
              />
            ))}
          </RadioGroup>
        )}
        {error && <FormHelperText>{error}</FormHelperText>}
      </FormControl>
    </>
  );
}

/** Asks first; once deleted says so (refDateQueries.responses.deleted) and calls `onDeleted`. */
export function DeleteRefDateQueryDialog({
  query,
  onClose,
  onDeleted = onClose,
}: {
  query: Pick<RefDateQueryView, 'id' | 'username' | 'intervals'>;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteRefDateQuery();
  return (
    <DeleteConfirmDialog
      label={t('refDateQueries.delete')}
      text={t('refDateQueries.deleteText', {
        username: query.username,
        intervals: intervalsText(query.intervals, t),
      })}
      remove={remove}
      target={query.id}
      deletedText={t('refDateQueries.responses.deleted')}
      onClose={onClose}
      onDeleted={onDeleted}
    />
  );
}
