import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAddressFacts } from '../../../components/address-facts.tsx';
import { EditSection } from '../../../components/edit-section.tsx';
import { FactList, type Fact } from '../../../components/fact-list.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { pathId } from '../../../lib/path-id.ts';
import { useInvoiceSellers, type InvoiceSeller, type InvoiceSellerEntry } from '../api/billing.ts';
import { SELLER_PATH } from '../lib/billing-paths.ts';
import { SellerDialog } from './seller-dialog.tsx';

/**
 * The seller tab (/system/billing/seller, master): per white-label the seller its invoices name,
 * read here and edited in a dialog ({tab}/{whitelabelId}). Without one its invoices are not
 * exported, which the white-label says.
 */
export function SellerTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sellers = useInvoiceSellers();
  const close = () => void navigate(SELLER_PATH);
  return (
    <Stack spacing={2} data-testid="seller-tab">
      <Typography color="text.secondary">{t('billing.seller.intro')}</Typography>
      <QueryContent query={sellers}>
        {(entries) => (
          <>
            {entries.map((entry) => (
              <EditSection
                key={entry.whitelabel.id}
                id={`invoice-seller-${entry.whitelabel.id}`}
                title={entry.whitelabel.title}
                editPath={`${SELLER_PATH}/${entry.whitelabel.id}`}
              >
                {entry.seller ? (
                  <SellerFacts seller={entry.seller} testId={`invoice-seller-${entry.whitelabel.id}`} />
                ) : (
                  <Alert severity="warning">{t('billing.seller.missing')}</Alert>
                )}
              </EditSection>
            ))}
            <Routes>
              <Route index element={null} />
              <Route path=":whitelabelId" element={<EditSeller entries={entries} onClose={close} />} />
              <Route path="*" element={<Navigate to={SELLER_PATH} replace />} />
            </Routes>
          </>
        )}
      </QueryContent>
    </Stack>
  );
}

/** {tab}/{whitelabelId}: the dialog of a white-label listed; any other id goes back to the tab. */
function EditSeller({ entries, onClose }: { entries: InvoiceSellerEntry[]; onClose: () => void }) {
  const id = pathId(useParams().whitelabelId);
  const entry = entries.find(({ whitelabel }) => whitelabel.id === id);
  if (!entry) return <Navigate to={SELLER_PATH} replace />;
  return <SellerDialog entry={entry} onClose={onClose} />;
}

function SellerFacts({ seller, testId }: { seller: InvoiceSeller; testId: string }) {
  const { t } = useTranslation();
  const label = (field: keyof InvoiceSeller) => t(`billing.seller.fields.${field}`);
  const address = useAddressFacts(
    {
      street: seller.street,
      streetNumber: null,
      postalCode: seller.postalCode,
      city: seller.city,
      countryCode: seller.countryCode,
    },
    '–',
  );
  const optional = (value: string) => value || '–';
  const rows: Fact[] = [
    ['name', label('name'), seller.name],
    ...address,
    ['vatId', label('vatId'), optional(seller.vatId)],
    ['taxNumber', label('taxNumber'), optional(seller.taxNumber)],
    ['register', label('register'), optional(seller.register)],
    ['managingDirectors', label('managingDirectors'), optional(seller.managingDirectors)],
    [
      'contact',
      label('contactName'),
      [seller.contactName, seller.phone, seller.email].map((line) => <div key={line}>{line}</div>),
    ],
    [
      'bank',
      t('billing.seller.bankAccount'),
      [seller.iban.replaceAll(/(.{4})(?=.)/g, '$1 '), seller.bic, seller.bankName]
        .filter(Boolean)
        .map((line) => <div key={line}>{line}</div>),
    ],
    ['paymentDays', t('billing.seller.paymentTerm'), t('billing.seller.days', { count: seller.paymentDays })],
  ];
  return <FactList rows={rows} rowTestIdPrefix={testId} />;
}
