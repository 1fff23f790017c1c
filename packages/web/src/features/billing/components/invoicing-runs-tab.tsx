import { useTranslation } from 'react-i18next';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { QueryContent } from '../../../components/query-content.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useInvoicingRuns, type InvoicingRun } from '../api/invoicing-runs.ts';
import { formatDay } from '../lib/billing-format.ts';
import { InvoicingResultView } from './invoicing-run.tsx';

/** One run: when, for which day, by whom; what it billed and skipped when opened. */
function RunEntry({ run }: { run: InvoicingRun }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const skipped = run.result.skipped.length;
  return (
    <Accordion variant="outlined" disableGutters data-testid={`invoicing-run-${run.id}`}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <Typography>
            {t('billing.runs.entry', {
              date: formatDay(run.day, locale),
              at: formatDateTime(run.finishedAt, locale),
            })}
          </Typography>
          <Typography color="text.secondary">
            {run.trigger === 'nightly'
              ? t('billing.runs.nightly')
              : t('billing.runs.byHand', { username: run.username ?? '–' })}
          </Typography>
          <Chip
            size="small"
            variant="outlined"
            label={t('billing.runs.invoices', { count: run.result.invoices.length })}
          />
          {skipped > 0 && (
            <Chip size="small" color="warning" label={t('billing.runs.skipped', { count: skipped })} />
          )}
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        <InvoicingResultView result={run.result} />
      </AccordionDetails>
    </Accordion>
  );
}

/** The latest invoicing runs, by hand and nightly, newest first: what each billed and skipped. */
export function InvoicingRunsTab() {
  const { t } = useTranslation();
  const runs = useInvoicingRuns();
  return (
    <Stack spacing={1} data-testid="invoicing-runs-tab">
      <Typography color="text.secondary">{t('billing.runs.intro')}</Typography>
      <QueryContent query={runs}>
        {(list) =>
          list.length === 0 ? (
            <Typography>{t('billing.runs.none')}</Typography>
          ) : (
            list.map((run) => <RunEntry key={run.id} run={run} />)
          )
        }
      </QueryContent>
    </Stack>
  );
}
