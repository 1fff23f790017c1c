import { useState, type FormEvent } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContactsIcon from '@mui/icons-material/Contacts';
import LogoutIcon from '@mui/icons-material/Logout';
import SearchIcon from '@mui/icons-material/Search';
import SettingsIcon from '@mui/icons-material/Settings';
import { LAYOUT_MAX_WIDTH } from '@tankportal/shared/constants';
import { hasRole, type Role } from '@tankportal/shared/roles';
import type { CurrentUser } from '@tankportal/shared/schemas/auth';
import { LanguageSwitch } from '../components/language-switch.tsx';
import { useWhitelabel } from '../lib/whitelabel.ts';
import { useLogout } from '../features/auth/api/logout.ts';
import { SystemNotificationsMenu } from '../features/system/components/system-notifications-menu.tsx';

const ENTRIES: { to: string; label: string; minimum: Role }[] = [
  { to: '/devices', label: 'nav.devices', minimum: 'ROLE_DEMO' },
  { to: '/users', label: 'nav.users', minimum: 'ROLE_ADMIN' },
  { to: '/messages', label: 'nav.messages', minimum: 'ROLE_ADMIN' },
  { to: '/system', label: 'nav.system', minimum: 'ROLE_MASTER' },
];

/** Device search: a digits-only term jumps straight to that device (portal-area §2 top bar). */
function DeviceSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = term.trim();
    if (!trimmed) return;
    void navigate(
      /^\d+$/.test(trimmed) ? `/devices/${trimmed}` : `/devices?search=${encodeURIComponent(trimmed)}`,
    );
  };
  return (
    <Box
      component="form"
      role="search"
      onSubmit={submit}
      sx={{
        display: 'flex',
        alignItems: 'center',
        bgcolor: 'rgba(255,255,255,0.15)',
        borderRadius: 1,
        px: 1,
      }}
    >
      <InputBase
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        placeholder={t('nav.search')}
        inputProps={{ 'aria-label': t('nav.search') }}
        sx={{ color: 'inherit', width: 160 }}
      />
      <IconButton type="submit" color="inherit" size="small" aria-label={t('nav.searchSubmit')}>
        <SearchIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

export function TopBar({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { data: whitelabel } = useWhitelabel();
  const logout = useLogout();
  const isUser = hasRole(user.role, 'ROLE_USER');
  return (
    <AppBar position="static" component="header">
      <Toolbar sx={{ maxWidth: LAYOUT_MAX_WIDTH, width: '100%', mx: 'auto', gap: 1, flexWrap: 'wrap' }}>
        {whitelabel?.headerImageUrl ? (
          <Box
            component="img"
            src={whitelabel.headerImageUrl}
            alt={whitelabel.title}
            sx={{ height: 36, mr: 2 }}
          />
        ) : (
          <Typography variant="h6" component="div" sx={{ mr: 2 }}>
            {whitelabel?.title}
          </Typography>
        )}
        <Box component="nav" sx={{ display: 'flex', gap: 0.5 }} aria-label="main">
          {ENTRIES.filter((entry) => hasRole(user.role, entry.minimum)).map((entry) => (
            <Button
              key={entry.to}
              color="inherit"
              component={NavLink}
              to={entry.to}
              sx={{ '&.active': { bgcolor: 'rgba(255,255,255,0.15)' } }}
            >
              {t(entry.label)}
            </Button>
          ))}
        </Box>
        <Box sx={{ flexGrow: 1 }} />
        <DeviceSearch />
        <LanguageSwitch color="inherit" />
        <SystemNotificationsMenu />
        {isUser && (
          <>
            <Tooltip title={t('nav.contacts')}>
              <IconButton color="inherit" component={NavLink} to="/contacts" aria-label={t('nav.contacts')}>
                <ContactsIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('nav.settings')}>
              <IconButton color="inherit" component={NavLink} to="/settings" aria-label={t('nav.settings')}>
                <SettingsIcon />
              </IconButton>
            </Tooltip>
          </>
        )}
        <Tooltip title={t('nav.logout')}>
          <IconButton
            color="inherit"
            aria-label={t('nav.logout')}
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
          >
            <LogoutIcon />
          </IconButton>
        </Tooltip>
      </Toolbar>
    </AppBar>
  );
}
