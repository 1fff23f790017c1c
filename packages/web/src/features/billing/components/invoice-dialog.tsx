import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { FactList, type Fact } from '../../../components/fact-list.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { formatNumber } from '../../../lib/format.ts';
import { pathId } from '../../../lib/path-id.ts';
import {
  useCreateAccountingInvoice,
  useInvoice,
  useSetInvoiceStatus,
  type Invoice,
  type InvoiceItem,
} from '../api/billing.ts';
import { accountingErrorText } from '../lib/accounting-error.ts';
import { AccountingChip, AccountingFailureNote } from './accounting-state.tsx';
import { formatDay, formatMoney } from '../lib/billing-format.ts';
import { InvoiceExportButtons } from './invoice-export-buttons.tsx';
import { StatusChip } from './invoice-status.tsx';

/** A quantity as counted (pro rata periods have decimals). */
const formatQuantity = (quantity: number, locale: 'de' | 'en') =>
  new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 4 }).format(quantity);

/** /system/billing/invoices/{invoiceId}: one invoice; one that does not load closes the dialog. */
export function InvoiceDialog({ onClose, closeTo }: { onClose: () => void; closeTo: string }) {
  const { t } = useTranslation();
  const invoiceId = pathId(useParams().invoiceId);
  const invoice = useInvoice(invoiceId);
  return (
    <EditDialogLoader
      query={invoiceId === null ? null : invoice}
      closeTo={closeTo}
      notFoundText={t('billing.invoice.notFound')}
    >
      {(loaded) => <InvoiceView invoice={loaded} onClose={onClose} />}
    </EditDialogLoader>
  );
}

function addressOf(item: InvoiceItem): string {
  const address = item.deviceInfo?.address;
  if (!address) return '';
  const street = [address.street, address.streetNumber].filter(Boolean).join(' ');
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [street, [address.countryCode, city].filter(Boolean).join('-')].filter(Boolean).join(', ');
}

function InvoiceView({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const setStatus = useSetInvoiceStatus(invoice.id);
  const create = useCreateAccountingInvoice();
  const money = (amount: string) => formatMoney(amount, locale);
  // Booked, or an attempt under way: the button would only be refused.
  const spent = invoice.accounting.state === 'created' || invoice.accounting.state === 'creating';
  const facts: Fact[] = [
    ['debtor', t('billing.invoice.columns.debtor'), invoice.debtorIdent],
    ['billedAt', t('billing.invoice.billedAt'), formatDay(invoice.billedAt, locale)],
    ['net', t('billing.invoice.columns.net'), money(invoice.totalPrice)],
    [
      'vat',
      t('billing.invoice.vatWithRate', { rate: formatNumber(Number(invoice.vatRate), locale, 0) }),
      money(invoice.totalVatAmount),
    ],
    ['gross', t('billing.invoice.columns.gross'), money(invoice.totalPriceGross)],
    ['status', t('billing.invoice.columns.status'), <StatusChip key="status" status={invoice.status} />],
    [
      'accounting',
      t('billing.invoice.columns.accounting'),
      <AccountingChip key="accounting" accounting={invoice.accounting} />,
    ],
  ];
  const columns = ['item', 'device', 'period', 'quantity', 'price', 'total'] as const;
  const label = (column: (typeof columns)[number]) => t(`billing.invoice.items.${column}`);
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      fullScreen={phone}
      maxWidth="lg"
      scroll="paper"
      aria-labelledby="invoice-dialog-title"
    >
      <DialogTitle id="invoice-dialog-title">{t('billing.invoice.number', { id: invoice.id })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <FactList rows={facts} rowTestIdPrefix="invoice" />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            useFlexGap
            sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap', gap: 2 }}
          >
            <FormControlLabel
              control={
                <Switch
                  checked={invoice.status === 'handled'}
                  disabled={setStatus.isPending}
                  onChange={(event) =>
                    setStatus.mutate(event.target.checked ? 'handled' : 'pending', {
                      onSuccess: () =>
                        enqueueSnackbar(t('billing.responses.invoiceStatusUpdated'), { variant: 'success' }),
                    })
                  }
                />
              }
              label={t('billing.invoice.handled')}
            />
            <Box sx={{ flex: 1 }} />
            <InvoiceExportButtons invoice={invoice} />
            <Button
              variant="outlined"
              startIcon={<CloudUploadIcon />}
              disabled={create.isPending || spent}
              onClick={() =>
                create.mutate(invoice.id, {
                  onSuccess: () =>
                    enqueueSnackbar(t('billing.responses.invoiceCreated'), { variant: 'success' }),
                  onError: (error) => enqueueSnackbar(accountingErrorText(error, t), { variant: 'error' }),
                })
              }
            >
              {t(
                invoice.accounting.state === 'created'
                  ? 'billing.invoice.createdInAccounting'
                  : 'billing.invoice.createInAccounting',
              )}
            </Button>
          </Stack>
          <AccountingFailureNote accounting={invoice.accounting} />
          <Typography variant="h6" component="h3">
            {t('billing.invoice.itemsTitle')}
          </Typography>
          <TableContainer>
            <Table size="small" sx={cardsOnPhone} aria-label={t('billing.invoice.itemsTitle')}>
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell
                      key={column}
                      align={['quantity', 'price', 'total'].includes(column) ? 'right' : 'left'}
                    >
                      {label(column)}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {invoice.items.map((item) => (
                  <TableRow key={item.id} data-testid={`invoice-item-${item.sequence}`}>
                    <TableCell data-label={label('item')}>
                      <Box>
                        <Typography variant="body2">{item.name}</Typography>
                        {item.additionalText && (
                          <Typography variant="caption" color="text.secondary">
                            {item.additionalText}
                          </Typography>
                        )}
                      </Box>
                    </TableCell>
                    <TableCell data-label={label('device')}>
                      {item.deviceInfo ? (
                        <Box>
                          <Link component={RouterLink} to={`/devices/${item.deviceInfo.id}`}>
                            {t('billing.deviceNumber', { id: item.deviceInfo.id })}
                          </Link>
                          <Typography variant="caption" color="text.secondary" component="div">
                            {[item.deviceInfo.user.username, addressOf(item)].filter(Boolean).join(' · ')}
                          </Typography>
                        </Box>
                      ) : (
                        '–'
                      )}
                    </TableCell>
                    <TableCell data-label={label('period')} sx={{ whiteSpace: { sm: 'nowrap' } }}>
                      {formatDay(item.periodBegin, locale)} – {formatDay(item.periodEnd, locale)}
                    </TableCell>
                    <TableCell data-label={label('quantity')} align="right">
                      {formatQuantity(item.quantity, locale)}
                    </TableCell>
                    <TableCell data-label={label('price')} align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {money(item.price)}
                    </TableCell>
                    <TableCell data-label={label('total')} align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {money(item.totalPrice)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
