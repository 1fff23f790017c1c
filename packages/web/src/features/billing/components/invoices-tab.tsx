import { Link as RouterLink, Route, Routes, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useInvoices, type Invoice } from '../api/billing.ts';
import { formatDay, formatMoney, invoiceYears } from '../lib/billing-format.ts';
import { AccountingChip } from './accounting-state.tsx';
import { InvoiceDialog } from './invoice-dialog.tsx';
import { StatusChip } from './invoice-status.tsx';
import { InvoicingRun } from './invoicing-run.tsx';

const BASE = '/system/billing/invoices';

/** Invoices grouped by their billing date, newest first. */
export function groupByBilledAt(invoices: readonly Invoice[]): [string, Invoice[]][] {
  const groups = new Map<string, Invoice[]>();
  for (const invoice of invoices) {
    const group = groups.get(invoice.billedAt) ?? [];
    group.push(invoice);
    groups.set(invoice.billedAt, group);
  }
  return [...groups.entries()].sort(([a], [b]) => b.localeCompare(a));
}

/** The invoices tab: one year's invoices (default this year), the run by hand. */
export function InvoicesTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const years = invoiceYears();
  const asked = Number(search.get('year'));
  const year = years.includes(asked) ? asked : years[0]!;
  const invoices = useInvoices(year);
  const back = () => void navigate({ pathname: BASE, search: search.toString() });
  return (
    <Stack spacing={2} data-testid="invoices-tab">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          select
          size="small"
          label={t('billing.system.year')}
          value={year}
          onChange={(event) => setSearch({ year: event.target.value }, { replace: true })}
          sx={{ minWidth: 120 }}
        >
          {years.map((option) => (
            <MenuItem key={option} value={option}>
              {option}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: 1 }} />
        <InvoicingRun onDone={(ran) => setSearch({ year: ran.slice(0, 4) }, { replace: true })} />
      </Stack>
      <QueryContent query={invoices}>
        {(list) => <InvoiceGroups invoices={list} search={search.toString()} />}
      </QueryContent>
      <Routes>
        <Route index element={null} />
        <Route path=":invoiceId" element={<InvoiceDialog onClose={back} closeTo={BASE} />} />
      </Routes>
    </Stack>
  );
}

function InvoiceGroups({ invoices, search }: { invoices: Invoice[]; search: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!invoices.length)
    return <Typography color="text.secondary">{t('billing.system.noInvoices')}</Typography>;
  const columns = ['number', 'debtor', 'net', 'vat', 'gross', 'status', 'accounting'] as const;
  return (
    <Stack spacing={2}>
      {groupByBilledAt(invoices).map(([billedAt, group]) => (
        <Paper
          key={billedAt}
          variant="outlined"
          component="section"
          aria-label={formatDay(billedAt, locale)}
          data-testid={`invoice-group-${billedAt}`}
          sx={{ p: { xs: 1, sm: 2 } }}
        >
          <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
            {t('billing.system.billedAt', { date: formatDay(billedAt, locale) })}
          </Typography>
          <TableContainer>
            <Table size="small" sx={cardsOnPhone}>
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell
                      key={column}
                      align={['net', 'vat', 'gross'].includes(column) ? 'right' : 'left'}
                    >
                      {t(`billing.invoice.columns.${column}`)}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {group.map((invoice) => (
                  <TableRow key={invoice.id} data-testid={`invoice-${invoice.id}`}>
                    <TableCell data-label={t('billing.invoice.columns.number')}>
                      <Link component={RouterLink} to={{ pathname: `${BASE}/${invoice.id}`, search }}>
                        {t('billing.invoice.number', { id: invoice.id })}
                      </Link>
                    </TableCell>
                    <TableCell data-label={t('billing.invoice.columns.debtor')}>
                      {invoice.debtorIdent}
                    </TableCell>
                    <TableCell data-label={t('billing.invoice.columns.net')} align="right">
                      {formatMoney(invoice.totalPrice, locale)}
                    </TableCell>
                    <TableCell data-label={t('billing.invoice.columns.vat')} align="right">
                      {formatMoney(invoice.totalVatAmount, locale)}
                    </TableCell>
                    <TableCell data-label={t('billing.invoice.columns.gross')} align="right">
                      {formatMoney(invoice.totalPriceGross, locale)}
                    </TableCell>
                    <TableCell data-label={t('billing.invoice.columns.status')}>
                      <StatusChip status={invoice.status} />
                    </TableCell>
                    <TableCell data-label={t('billing.invoice.columns.accounting')}>
                      <AccountingChip accounting={invoice.accounting} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
      ))}
    </Stack>
  );
}
