import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { useLogout } from '../../features/auth/api/logout.ts';
import { useRefreshCurrentUser } from '../../features/settings/api/second-factor.ts';
import { SecondFactorEnrolment } from '../../features/settings/components/second-factor-enrolment.tsx';

/**
 * /second-factor: the white-label requires a second factor the signed-in user has not set up. The
 * portal waits here (the server refuses everything else to this session) until it is, or until the
 * user signs out; then the guards lead on to the devices.
 */
export default function SecondFactorRequiredPage() {
  const { t } = useTranslation();
  const logout = useLogout();
  const refreshUser = useRefreshCurrentUser();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.100', py: 6, px: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', maxWidth: 1440, mx: 'auto' }}>
        <LanguageSwitch />
      </Box>
      <Paper component="main" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 640, mx: 'auto' }} elevation={2}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('second-factor.requiredTitle')}
          </Typography>
          <Typography>{t('second-factor.requiredIntro')}</Typography>
          <Typography>{t('second-factor.intro')}</Typography>
          <SecondFactorEnrolment onDone={() => void refreshUser()} />
          <Button variant="text" onClick={() => logout.mutate()} sx={{ alignSelf: 'flex-start' }}>
            {t('second-factor.logout')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
