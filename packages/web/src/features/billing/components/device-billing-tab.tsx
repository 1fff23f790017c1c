import { useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { EditSection } from '../../../components/edit-section.tsx';
import { FactList, type Fact } from '../../../components/fact-list.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import type { DeviceDetailView } from '../../../lib/api/devices.ts';
import { devicePath } from '../../../lib/device-path.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useDeleteBillingTerms, useDeviceBillingTerms, type BillingTerms } from '../api/billing.ts';
import { formatDay, formatMoney } from '../lib/billing-format.ts';
import { DebtorDialog, RecipientFieldsDialog } from './debtor-dialogs.tsx';
import { CreateTermsDialog, EditTermsDialog } from './terms-dialog.tsx';

/** The name a terms entry is known by: the custom name, else its translated alias. */
export function useTermsName() {
  const { t } = useTranslation();
  return (terms: Pick<BillingTerms, 'alias' | 'custom'>) =>
    terms.alias === 'custom' && terms.custom.name ? terms.custom.name : t(`billing.aliases.${terms.alias}`);
}

/**
 * /devices/{id}/settings/billing (master): the device's billing terms, its debtor
 * and, once there is a debtor, the invoice's recipient (address, Leitweg-ID of a public buyer) and
 * order number. The dialogs are
 * sub-routes of the tab.
 */
export default function DeviceBillingTab({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = devicePath(device.id, 'settings/billing');
  const terms = useDeviceBillingTerms(device.id);
  const [deleting, setDeleting] = useState<BillingTerms | null>(null);
  const termsName = useTermsName();
  const remove = useDeleteBillingTerms(device.id);
  const close = () => void navigate(base);
  const ident = device.debtor?.ident ?? null;
  const withDebtor = (element: ReactNode) => (ident ? element : <Navigate to={base} replace />);
  const text = (value: string | null) =>
    value ? (
      <Box component="span" sx={{ whiteSpace: 'pre-line' }}>
        {value}
      </Box>
    ) : (
      '–'
    );
  const debtorFacts: Fact[] = [['ident', t('billing.debtor.ident'), ident ?? t('billing.debtor.none')]];
  const recipientFacts: Fact[] = [
    ['address', t('billing.recipient.address'), text(device.recipientAddress)],
    ['leitwegId', t('billing.recipient.leitwegId'), device.leitwegId || '–'],
  ];
  const recipientValues = {
    recipientAddress: device.recipientAddress,
    orderNumber: device.orderNumber,
    leitwegId: device.leitwegId,
  };

  return (
    <Stack spacing={2} data-testid="billing-tab">
      <EditSection id="billing-debtor" title={t('billing.debtor.title')} editPath={`${base}/debtor`}>
        <FactList rows={debtorFacts} rowTestIdPrefix="billing-debtor" />
      </EditSection>
      {ident && (
        <>
          <EditSection
            id="billing-recipient"
            title={t('billing.recipient.recipientAddress')}
            editPath={`${base}/recipient`}
          >
            <FactList rows={recipientFacts} rowTestIdPrefix="billing-recipient" />
          </EditSection>
          <EditSection
            id="billing-order-number"
            title={t('billing.recipient.orderNumber')}
            editPath={`${base}/order-number`}
          >
            {text(device.orderNumber)}
          </EditSection>
        </>
      )}
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
        <Typography variant="h6" component="h2">
          {t('billing.terms')}
        </Typography>
        <Button component={RouterLink} to={`${base}/new`} variant="contained" startIcon={<AddIcon />}>
          {t('billing.newTerms')}
        </Button>
      </Stack>
      <QueryContent query={terms}>
        {(list) => <TermsTable terms={list} base={base} onDelete={setDeleting} />}
      </QueryContent>
      <Routes>
        <Route index element={null} />
        <Route path="new" element={<CreateTermsDialog deviceId={device.id} onClose={close} />} />
        <Route path="debtor" element={<DebtorDialog deviceId={device.id} ident={ident} onClose={close} />} />
        <Route
          path="recipient"
          element={withDebtor(
            <RecipientFieldsDialog
              deviceId={device.id}
              fields={['recipientAddress', 'leitwegId']}
              values={recipientValues}
              onClose={close}
            />,
          )}
        />
        <Route
          path="order-number"
          element={withDebtor(
            <RecipientFieldsDialog
              deviceId={device.id}
              fields={['orderNumber']}
              values={recipientValues}
              onClose={close}
            />,
          )}
        />
        <Route
          path=":termsId"
          element={<EditTermsDialog deviceId={device.id} base={base} onClose={close} />}
        />
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
      {deleting && (
        <DeleteConfirmDialog
          label={t('billing.deleteTerms')}
          text={t('billing.deleteQuestion', { name: termsName(deleting) })}
          remove={remove}
          target={deleting.id}
          deletedText={t('billing.responses.termsDeleted')}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}

function TermsTable({
  terms,
  base,
  onDelete,
}: {
  terms: BillingTerms[];
  base: string;
  onDelete: (terms: BillingTerms) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const termsName = useTermsName();
  if (!terms.length) return <Typography color="text.secondary">{t('billing.noTerms')}</Typography>;
  const columns = ['alias', 'price', 'chargingPeriodType', 'validity', 'invoicing'] as const;
  return (
    <TableContainer>
      <Table size="small" aria-label={t('billing.terms')} sx={cardsOnPhone}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column}>{t(`billing.columns.${column}`)}</TableCell>
            ))}
            <TableCell align="right">{t('billing.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {terms.map((entry) => {
            const label = (column: (typeof columns)[number] | 'actions') => t(`billing.columns.${column}`);
            return (
              <TableRow key={entry.id} data-testid={`billing-terms-${entry.id}`}>
                <TableCell data-label={label('alias')}>
                  <Box>
                    <Typography variant="body2">{t(`billing.aliases.${entry.alias}`)}</Typography>
                    {entry.custom.name && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {entry.custom.name}
                      </Typography>
                    )}
                    {entry.additionalText && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {entry.additionalText}
                      </Typography>
                    )}
                    {entry.custom.exemptedQuantity != null && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {t('billing.exempted', { count: entry.custom.exemptedQuantity })}
                      </Typography>
                    )}
                  </Box>
                </TableCell>
                <TableCell data-label={label('price')} sx={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(entry.price, locale)}
                </TableCell>
                <TableCell data-label={label('chargingPeriodType')}>
                  <Box>
                    <Typography variant="body2">
                      {t(`billing.periods.${entry.chargingPeriodType}`)}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t(`billing.invoicingTimes.${entry.timeOfInvoicing}`)}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell data-label={label('validity')}>
                  {formatDay(entry.validFrom, locale)} –{' '}
                  {entry.validUntil ? formatDay(entry.validUntil, locale) : '…'}
                </TableCell>
                <TableCell data-label={label('invoicing')}>
                  <Box>
                    <Typography variant="body2" data-testid="billing-invoiced-until">
                      {t('billing.invoicedUntil', { date: formatDay(entry.invoicedUntil, locale) })}
                    </Typography>
                    <Typography variant="body2" data-testid="billing-next-invoicing">
                      {t('billing.nextInvoicingAt', { date: formatDay(entry.nextInvoicingAt, locale) })}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} data-label={label('actions')}>
                  <EditDeleteActions
                    editTo={`${base}/${entry.id}`}
                    onDelete={() => onDelete(entry)}
                    editLabel={t('billing.editTerms')}
                    deleteLabel={t('billing.deleteTerms')}
                    name={termsName(entry)}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
