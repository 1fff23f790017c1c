import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { NumberedPages } from '../../../components/numbered-pages.tsx';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import EventIcon from '@mui/icons-material/Event';
import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import { BILLING_TERMS_PAGE_SIZE } from '@tankportal/shared/schemas/billing';
import { useSnackbar } from 'notistack';
import { errorText } from '../../../lib/error-texts.ts';
import { FactList, type Fact } from '../../../components/fact-list.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { useLocale } from '../../../lib/i18n.ts';
import {
  downloadBillingTermsExport,
  useSystemBillingTerms,
  type SystemBillingTerms,
} from '../api/billing.ts';
import { formatDay, formatMoney } from '../lib/billing-format.ts';
import { useTermsName } from './device-billing-tab.tsx';

/** The rows of one page by device, in the order the server sends them (by device). */
export function groupByDevice(rows: readonly SystemBillingTerms[]): SystemBillingTerms[][] {
  const groups: SystemBillingTerms[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last[0]!.device.id === row.device.id) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

/** The terms tab: every device's terms, 100 per page, and their export. */
export function SystemTermsTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const terms = useSystemBillingTerms(page);
  const [exporting, setExporting] = useState(false);
  const { enqueueSnackbar } = useSnackbar();
  const pages = Math.max(1, Math.ceil((terms.data?.total ?? 0) / BILLING_TERMS_PAGE_SIZE));
  return (
    <Stack spacing={2} data-testid="system-terms-tab">
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}
      >
        <Typography color="text.secondary" data-testid="system-terms-count">
          {t('billing.system.termsCount', { count: terms.data?.total ?? 0 })}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={exporting}
          onClick={() => {
            // Disabled for a moment after the click (exports).
            setExporting(true);
            setTimeout(() => setExporting(false), 1000);
            downloadBillingTermsExport().catch((error: unknown) =>
              enqueueSnackbar(errorText(error, t), { variant: 'error' }),
            );
          }}
        >
          {t('billing.system.export')}
        </Button>
      </Stack>
      <QueryContent query={terms}>
        {({ items }) =>
          items.length ? (
            <Stack spacing={2}>
              {groupByDevice(items).map((group) => (
                <DeviceTerms key={group[0]!.device.id} rows={group} />
              ))}
            </Stack>
          ) : (
            <Typography color="text.secondary">{t('billing.system.noTerms')}</Typography>
          )
        }
      </QueryContent>
      {pages > 1 && <NumberedPages count={pages} page={page} onPageChange={setPage} />}
    </Stack>
  );
}

function gatewayText(gateway: SystemBillingTerms['device']['inboundGateway']): string {
  return gateway ? `${gateway.provider} (${gateway.username})` : '–';
}

function DeviceTerms({ rows }: { rows: SystemBillingTerms[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const termsName = useTermsName();
  const { device } = rows[0]!;
  const facts: Fact[] = [
    ['debtor', t('billing.debtor.ident'), device.debtor?.ident ?? '–'],
    ['user', t('billing.system.user'), device.user.username],
    ['inbound', t('billing.system.inboundGateway'), gatewayText(device.inboundGateway)],
    ['outbound', t('billing.system.outboundGateway'), gatewayText(device.outboundGateway)],
  ];
  const columns = [
    'alias',
    'price',
    'chargingPeriodType',
    'timeOfInvoicing',
    'invoicedUntil',
    'nextInvoicingAt',
    'state',
  ] as const;
  const label = (column: (typeof columns)[number]) => t(`billing.columns.${column}`);
  return (
    <Paper
      variant="outlined"
      component="section"
      data-testid={`system-terms-device-${device.id}`}
      sx={{ p: { xs: 1, sm: 2 } }}
    >
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
        <Link component={RouterLink} to={`/devices/${device.id}/settings/billing`}>
          {t('billing.deviceNumber', { id: device.id })}
        </Link>
        {device.name && ` · ${device.name}`}
      </Typography>
      <Box sx={{ mb: 1 }}>
        <FactList rows={facts} rowTestIdPrefix={`system-terms-device-${device.id}`} />
      </Box>
      <TableContainer>
        <Table size="small" sx={cardsOnPhone} aria-label={t('billing.terms')}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column}>{label(column)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-testid={`system-terms-${row.id}`}>
                <TableCell data-label={label('alias')}>{termsName(row)}</TableCell>
                <TableCell data-label={label('price')} sx={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(row.price, locale)}
                </TableCell>
                <TableCell data-label={label('chargingPeriodType')}>
                  {t(`billing.periods.${row.chargingPeriodType}`)}
                </TableCell>
                <TableCell data-label={label('timeOfInvoicing')}>
                  {t(`billing.invoicingTimes.${row.timeOfInvoicing}`)}
                </TableCell>
                <TableCell data-label={label('invoicedUntil')}>
                  {formatDay(row.invoicedUntil, locale)}
                </TableCell>
                <TableCell data-label={label('nextInvoicingAt')}>
                  {formatDay(row.nextInvoicingAt, locale)}
                </TableCell>
                <TableCell data-label={label('state')}>
                  <ScheduledIcon scheduled={row.isScheduled} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}

/** Scheduled (not yet due) versus due, as icons. */
function ScheduledIcon({ scheduled }: { scheduled: boolean }) {
  const { t } = useTranslation();
  const text = t(scheduled ? 'billing.system.scheduled' : 'billing.system.due');
  return (
    <Tooltip title={text}>
      {scheduled ? (
        <EventIcon
          fontSize="small"
          color="action"
          aria-label={text}
          role="img"
          data-testid="terms-scheduled"
        />
      ) : (
        <NotificationImportantIcon
          fontSize="small"
          color="warning"
          aria-label={text}
          role="img"
          data-testid="terms-due"
        />
      )}
    </Tooltip>
  );
}
