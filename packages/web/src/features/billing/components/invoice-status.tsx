import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import type { Invoice } from '../api/billing.ts';

/** An invoice's status as a chip: handled in green, open in the warning colour. */
export function StatusChip({ status }: { status: Invoice['status'] }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`billing.invoice.statuses.${status}`)}
      color={status === 'handled' ? 'success' : 'warning'}
      variant="outlined"
    />
  );
}
