import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PreviewIcon from '@mui/icons-material/Preview';
import type { SkippedTerm } from '@tankportal/shared/schemas/invoicing-runs';
import { Loading } from '../../../components/loading.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { devicePath } from '../../../lib/device-path.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useInvoicingPreview, useInvoicingRun, type InvoicingResult } from '../api/invoicing-runs.ts';
import { formatDay, formatMoney, today } from '../lib/billing-format.ts';
import { DayField } from '../../../components/day-field.tsx';

/** Why a term was skipped, in words, its dates as the locale writes them. */
function SkippedReason({ term }: { term: SkippedTerm }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const args = Object.fromEntries(
    Object.entries(term.args).map(([key, value]) => [
      key,
      /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? formatDay(value, locale)
        : /^\d+\.\d{2}$/.test(value)
          ? formatMoney(value, locale)
          : value,
    ]),
  );
  return <>{t(`billing.run.reasons.${term.reason}`, args)}</>;
}

/**
 * What a run billed or a preview would bill: the totals, the invoices (with their lines in a
 * preview), and the terms skipped with why, each linked to where it is corrected.
 */
export function InvoicingResultView({ result }: { result: InvoicingResult }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = (amount: string) => formatMoney(amount, locale);
  return (
    <Stack spacing={2} data-testid="invoicing-result">
      <Typography data-testid="invoicing-totals">
        {t('billing.run.totals', {
          count: result.invoices.length,
          debtors: result.debtors.length,
          net: money(result.totals.net),
          vat: money(result.totals.vat),
          gross: money(result.totals.gross),
        })}
      </Typography>
      {result.invoices.length > 0 && (
        <Table size="small" sx={cardsOnPhone}>
          <TableHead>
            <TableRow>
              <TableCell>{t('billing.invoice.columns.number')}</TableCell>
              <TableCell>{t('billing.invoice.columns.debtor')}</TableCell>
              <TableCell align="right">{t('billing.invoice.columns.net')}</TableCell>
              <TableCell align="right">{t('billing.invoice.columns.gross')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.invoices.map((invoice) => (
              <TableRow key={invoice.debtorIdent + String(invoice.id)} data-testid="invoicing-result-invoice">
                <TableCell data-label={t('billing.invoice.columns.number')}>
                  {invoice.id === null
                    ? t('billing.run.newInvoice')
                    : t('billing.invoice.number', { id: invoice.id })}
                  {invoice.items?.map((item, index) => (
                    <Typography key={index} variant="body2" color="text.secondary">
                      {t('billing.run.line', {
                        name: item.name,
                        device: item.deviceId,
                        from: formatDay(item.periodBegin, locale),
                        until: formatDay(item.periodEnd, locale),
                        total: money(item.totalPrice),
                      })}
                    </Typography>
                  ))}
                </TableCell>
                <TableCell data-label={t('billing.invoice.columns.debtor')}>{invoice.debtorIdent}</TableCell>
                <TableCell data-label={t('billing.invoice.columns.net')} align="right">
                  {money(invoice.totalPrice)}
                </TableCell>
                <TableCell data-label={t('billing.invoice.columns.gross')} align="right">
                  {money(invoice.totalPriceGross)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {result.skipped.length > 0 && (
        <Alert severity="warning" data-testid="invoicing-skipped">
          <Typography variant="subtitle2" component="h3">
            {t('billing.run.skippedTitle', { count: result.skipped.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {result.skipped.map((term) => (
              <li key={term.termsId} data-testid={`skipped-term-${term.termsId}`}>
                {t('billing.run.skippedTerm', {
                  debtor: term.debtorIdent,
                  device: term.deviceId,
                  name: term.name ?? t(`billing.aliases.${term.alias}`),
                })}{' '}
                <SkippedReason term={term} />{' '}
                <Link
                  component={RouterLink}
                  to={`${devicePath(term.deviceId, 'settings')}/billing/${term.termsId}`}
                >
                  {t('billing.run.correct')}
                </Link>
              </li>
            ))}
          </Box>
        </Alert>
      )}
    </Stack>
  );
}

interface RunDialogProps {
  day: string;
  onClose: () => void;
  onDayError: (message: string) => void;
  onDone: (day: string) => void;
}

/**
 * The preview of a run for `day`, and the confirmation of the run with its totals: nothing is billed
 * before "bill" is pressed here. After the run it shows what was billed and skipped.
 */
function RunDialog({ day, onClose, onDayError, onDone }: RunDialogProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const run = useInvoicingRun();
  const [result, setResult] = useState<InvoicingResult | null>(null);
  const preview = useInvoicingPreview(day, result === null);
  const failure = preview.error ?? run.error;
  const fieldError = failure instanceof ApiError ? failure.body?.fieldErrors?.[0] : undefined;
  const dayError = fieldError ? fieldErrorText(t, fieldError) : null;
  // The day is wrong (after today): said under the day field, not in here.
  useEffect(() => {
    if (dayError) onDayError(dayError);
  }, [dayError, onDayError]);
  if (dayError) return null;
  const shown = result ?? preview.data;
  const nothing = shown && shown.invoices.length === 0 && shown.skipped.length === 0;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="invoicing-run-title">
      <DialogTitle id="invoicing-run-title">
        {t(result ? 'billing.run.resultTitle' : 'billing.run.previewTitle', { date: formatDay(day, locale) })}
      </DialogTitle>
      <DialogContent data-testid={result ? 'invoicing-run-result' : 'invoicing-preview'}>
        {!shown && !failure && <Loading />}
        {failure && !fieldError && <Alert severity="error">{t('billing.run.failed')}</Alert>}
        {nothing && <Typography>{t('billing.run.nothingDue')}</Typography>}
        {shown && !nothing && <InvoicingResultView result={shown} />}
        {shown && !result && shown.invoices.length > 0 && (
          <Typography sx={{ mt: 2 }} fontWeight="bold">
            {t('billing.run.confirm', {
              count: shown.invoices.length,
              gross: formatMoney(shown.totals.gross, locale),
            })}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t(result ? 'common.close' : 'common.cancel')}</Button>
        {!result && (
          <Button
            variant="contained"
            startIcon={<PlayArrowIcon />}
            disabled={!shown || shown.invoices.length === 0 || run.isPending}
            onClick={() =>
              run.mutate(
                { date: day },
                {
                  onSuccess: (ran) => {
                    enqueueSnackbar(t('billing.system.run.done', { count: ran.invoiceIds.length }), {
                      variant: 'success',
                    });
                    setResult(ran);
                    onDone(day);
                  },
                },
              )
            }
          >
            {t('billing.run.bill')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/**
 * "Run invoicing now" (master): the day (today by default), a preview of what a run would bill, and
 * the run itself, which first shows that preview with its totals for confirmation.
 */
export function InvoicingRun({ onDone }: { onDone: (day: string) => void }) {
  const { t } = useTranslation();
  const [day, setDay] = useState(today());
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<'preview' | 'run' | null>(null);
  return (
    <Stack
      component="form"
      noValidate
      direction="row"
      spacing={1}
      sx={{ alignItems: 'flex-start', flexWrap: 'wrap', rowGap: 1 }}
      data-testid="invoicing-run"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        setOpen('run');
      }}
    >
      <DayField
        size="small"
        label={t('billing.system.run.date')}
        value={day}
        onChange={setDay}
        slotProps={{ inputLabel: { shrink: true } }}
        error={!!error}
        helperText={error}
      />
      <Button
        variant="outlined"
        startIcon={<PreviewIcon />}
        onClick={() => {
          setError(null);
          setOpen('preview');
        }}
      >
        {t('billing.run.preview')}
      </Button>
      <Button type="submit" variant="contained" startIcon={<PlayArrowIcon />}>
        {t('billing.system.run.start')}
      </Button>
      {open && (
        <RunDialog
          key={`${open}-${day}`}
          day={day || today()}
          onClose={() => setOpen(null)}
          onDayError={(message) => {
            setError(message);
            setOpen(null);
          }}
          onDone={onDone}
        />
      )}
    </Stack>
  );
}
