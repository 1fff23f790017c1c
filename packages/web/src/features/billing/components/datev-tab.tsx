import { useState } from 'react';
import { Navigate, Route, Routes, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { endOfMonth, format, startOfMonth, subMonths } from 'date-fns';
import type { TFunction } from 'i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import { DATEV_RATES, DATEV_RATE_PERCENT, datevExportQuery } from '@tankportal/shared/schemas/datev';
import { DayField } from '../../../components/day-field.tsx';
import { EditSection } from '../../../components/edit-section.tsx';
import { FactList, type Fact } from '../../../components/fact-list.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { pathId } from '../../../lib/path-id.ts';
import {
  downloadDatevExport,
  useDatevSettings,
  type DatevSettings,
  type DatevSettingsEntry,
} from '../api/datev.ts';
import { DATEV_PATH } from '../lib/billing-paths.ts';
import { DatevDialog } from './datev-dialog.tsx';

/**
 * The DATEV tab (/system/billing/datev, master): per white-label its DATEV numbers and accounts
 * (edited in a dialog, {tab}/{whitelabelId}) and the download of a period's invoices for the tax
 * advisor: the Buchungsstapel and the invoice PDFs in a ZIP.
 */
export function DatevTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entries = useDatevSettings();
  const close = () => void navigate(DATEV_PATH);
  return (
    <Stack spacing={2} data-testid="datev-tab">
      <Typography color="text.secondary">{t('datev.intro')}</Typography>
      <QueryContent query={entries}>
        {(list) => (
          <>
            {list.map((entry) => (
              <EditSection
                key={entry.whitelabel.id}
                id={`datev-${entry.whitelabel.id}`}
                title={entry.whitelabel.title}
                editPath={`${DATEV_PATH}/${entry.whitelabel.id}`}
              >
                {entry.settings ? (
                  <Stack spacing={2}>
                    <SettingsFacts settings={entry.settings} testId={`datev-${entry.whitelabel.id}`} />
                    <ExportForm whitelabelId={entry.whitelabel.id} />
                  </Stack>
                ) : (
                  <Alert severity="warning">
                    {t('datev.missing')}{' '}
                    <Link component={RouterLink} to={`${DATEV_PATH}/${entry.whitelabel.id}`}>
                      {t('datev.setUp')}
                    </Link>
                  </Alert>
                )}
              </EditSection>
            ))}
            <Routes>
              <Route index element={null} />
              <Route path=":whitelabelId" element={<EditSettings entries={list} onClose={close} />} />
              <Route path="*" element={<Navigate to={DATEV_PATH} replace />} />
            </Routes>
          </>
        )}
      </QueryContent>
    </Stack>
  );
}

/** {tab}/{whitelabelId}: the dialog of a white-label listed; any other id goes back to the tab. */
function EditSettings({ entries, onClose }: { entries: DatevSettingsEntry[]; onClose: () => void }) {
  const id = pathId(useParams().whitelabelId);
  const entry = entries.find(({ whitelabel }) => whitelabel.id === id);
  if (!entry) return <Navigate to={DATEV_PATH} replace />;
  return <DatevDialog entry={entry} onClose={onClose} />;
}

function SettingsFacts({ settings, testId }: { settings: DatevSettings; testId: string }) {
  const { t } = useTranslation();
  const rows: Fact[] = [
    ['chart', t('datev.fields.chart'), settings.chart],
    [
      'numbers',
      t('datev.numbers'),
      t('datev.numbersValue', { consultant: settings.consultantNumber, client: settings.clientNumber }),
    ],
    ['accountLength', t('datev.fields.accountLength'), settings.accountLength],
    ['receivableAccount', t('datev.fields.receivableAccount'), settings.receivableAccount],
    ...DATEV_RATES.map((rate): Fact => [
      rate,
      t('datev.revenueAccount', { rate: DATEV_RATE_PERCENT[rate] }),
      settings.revenue[rate].taxKey
        ? t('datev.accountWithKey', settings.revenue[rate])
        : settings.revenue[rate].account,
    ]),
  ];
  return <FactList rows={rows} rowTestIdPrefix={testId} />;
}

type DateField = 'from' | 'to';
type DateErrors = Partial<Record<DateField, string>>;

/** The period's field errors in this form's words (the shared rules, checked here and on the server). */
function periodErrors(fieldErrors: readonly FieldError[], t: TFunction): DateErrors {
  const errors: DateErrors = {};
  for (const fieldError of fieldErrors) {
    if (fieldError.path !== 'from' && fieldError.path !== 'to') continue;
    errors[fieldError.path] ??=
      fieldError.code === 'min'
        ? t('datev.errors.toBeforeFrom')
        : fieldError.code === 'max'
          ? t('datev.errors.oneYear')
          : fieldErrorText(t, fieldError);
  }
  return errors;
}

/** What a refused export says: not set up, a rate without an account, or the invoice export's reason. */
function exportFailure(error: unknown, t: TFunction): string {
  const name = error instanceof ApiError && error.status === 409 ? error.body?.message : undefined;
  if (name === 'DatevNotConfigured' || name === 'DatevRateWithoutAccount') return t(`datev.errors.${name}`);
  if (name === 'SellerNotConfigured' || name === 'RecipientAddressIncomplete')
    return t(`billing.exportErrors.${name}`);
  return errorText(error, t);
}

/** The period (last month by default) and the download; the button spins until the file is there. */
function ExportForm({ whitelabelId }: { whitelabelId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const [period, setPeriod] = useState<Record<DateField, string>>(() => {
    const lastMonth = subMonths(new Date(), 1);
    return {
      from: format(startOfMonth(lastMonth), 'yyyy-MM-dd'),
      to: format(endOfMonth(lastMonth), 'yyyy-MM-dd'),
    };
  });
  const [errors, setErrors] = useState<DateErrors>({});
  const [running, setRunning] = useState(false);

  const start = async () => {
    const checked = datevExportQuery.safeParse({ ...period, locale });
    if (!checked.success) {
      setErrors(periodErrors(checked.error.issues.map(toFieldError), t));
      return;
    }
    setErrors({});
    setRunning(true);
    try {
      await downloadDatevExport(whitelabelId, period.from, period.to, locale);
    } catch (error) {
      const fieldErrors = error instanceof ApiError ? (error.body?.fieldErrors ?? []) : [];
      const mapped = periodErrors(fieldErrors, t);
      if (Object.keys(mapped).length) setErrors(mapped);
      else enqueueSnackbar(exportFailure(error, t), { variant: 'error' });
    } finally {
      setRunning(false);
    }
  };

  return (
    <Stack
      component="form"
      noValidate
      aria-label={t('datev.export')}
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      alignItems={{ sm: 'flex-start' }}
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
      data-testid={`datev-export-${whitelabelId}`}
    >
      {(['from', 'to'] as const).map((field) => (
        <DayField
          key={field}
          size="small"
          label={t(`datev.${field}`)}
          value={period[field]}
          onChange={(value) => setPeriod((current) => ({ ...current, [field]: value }))}
          error={!!errors[field]}
          helperText={errors[field]}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `datev-${field}` } }}
        />
      ))}
      <Button
        type="submit"
        variant="contained"
        disabled={running}
        aria-busy={running}
        startIcon={running ? <CircularProgress size={18} color="inherit" /> : <DownloadIcon />}
      >
        {t('datev.download')}
      </Button>
    </Stack>
  );
}
