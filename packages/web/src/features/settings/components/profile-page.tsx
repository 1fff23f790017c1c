import { Outlet, Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { SettingsTabs } from './settings-tabs.tsx';

/** /settings: the own profile; /settings/credentials opens the password dialog over it. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  const rows: [string, string][] = [
    [t('settings.username'), user.username],
    [t('settings.name'), user.name],
  ];
  if (user.company) rows.push([t('settings.company'), user.company]);
  return (
    <Page title={t('nav.settings')}>
      <SettingsTabs />
      <Table sx={{ maxWidth: 600, mb: 2 }} data-testid="profile">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                {label}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {/* The server refuses a password change while impersonating: it is not offered. */}
      {!user.impersonator && (
        <Button variant="contained" component={RouterLink} to="/settings/credentials">
          {t('settings.changePassword')}
        </Button>
      )}
      <Outlet />
    </Page>
  );
}
