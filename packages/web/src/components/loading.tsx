import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** A page's or section's data on its way: one progress bar, named for screen readers. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'center', p: 6 }}
      role="progressbar"
      aria-label={t('common.loading')}
    >
      <CircularProgress aria-hidden />
    </Box>
  );
}
