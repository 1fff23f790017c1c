import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import type { Invoice } from '../api/billing.ts';

const COLORS = {
  pending: 'default',
  creating: 'info',
  created: 'success',
  failed: 'error',
  unknown: 'warning',
} as const;

/** Where an invoice stands in the accounting service, in the user's language (decision 048). */
export function AccountingChip({ accounting }: Pick<Invoice, 'accounting'>) {
  const { t } = useTranslation();
  const reason = accounting.failure ? t(`billing.accountingErrors.${accounting.failure}`) : undefined;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[accounting.state]}
      label={t(`billing.accountingStates.${accounting.state}`)}
      title={reason}
      data-testid="accounting-state"
    />
  );
}

/** Why the last attempt failed, and what the next one does; nothing once booked or never tried. */
export function AccountingFailureNote({ accounting }: Pick<Invoice, 'accounting'>) {
  const { t } = useTranslation();
  if (!accounting.failure || accounting.state === 'created' || accounting.state === 'pending') return null;
  return (
    <Alert severity={accounting.state === 'unknown' ? 'warning' : 'error'} data-testid="accounting-failure">
      {t(`billing.accountingErrors.${accounting.failure}`)}
      {accounting.state === 'unknown' && ` ${t('billing.accountingStates.unknownNext')}`}
    </Alert>
  );
}
