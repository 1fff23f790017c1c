import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';

/**
 * Previous and next page of a list the server does not count (millions of rows: the message log,
 * the record of changes), which says only whether a next page follows.
 */
export function PreviousNextPages({
  page,
  hasMore,
  onPageChange,
}: {
  page: number;
  hasMore: boolean;
  onPageChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} justifyContent="center" alignItems="center">
      <Button startIcon={<ChevronLeftIcon />} disabled={page === 1} onClick={() => onPageChange(page - 1)}>
        {t('pages.previous')}
      </Button>
      <Typography variant="body2">{t('pages.page', { page })}</Typography>
      <Button endIcon={<ChevronRightIcon />} disabled={!hasMore} onClick={() => onPageChange(page + 1)}>
        {t('pages.next')}
      </Button>
    </Stack>
  );
}
