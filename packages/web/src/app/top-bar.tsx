import { useState, type FormEvent, type ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import ContactsIcon from '@mui/icons-material/Contacts';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
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
  { to: '/orders', label: 'nav.orders', minimum: 'ROLE_ADMIN' },
  { to: '/tours', label: 'nav.tours', minimum: 'ROLE_ADMIN' },
  { to: '/system', label: 'nav.system', minimum: 'ROLE_MASTER' },
];

/**
 * Below this width the top bar is compact: title, system notifications and a
 * menu button; the navigation, search, language and logout move into the menu. From 1024 px on
 * (every desktop width) the bar is the full one.
 */
const COMPACT_QUERY = '(max-width: 1023.95px)';

/** Device search: a digits-only term jumps straight to that device. */
function DeviceSearch({ inMenu = false, onDone }: { inMenu?: boolean; onDone?: () => void }) {
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
    onDone?.();
  };
  return (
    <Box
      component="form"
      role="search"
      onSubmit={submit}
      sx={{
        display: 'flex',
        alignItems: 'center',
        bgcolor: inMenu ? 'action.hover' : 'rgba(255,255,255,0.15)',
        borderRadius: 1,
        px: 1,
      }}
    >
      <InputBase
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        placeholder={t('nav.search')}
        inputProps={{ 'aria-label': t('nav.search') }}
        sx={{ color: 'inherit', width: inMenu ? undefined : 160, flex: inMenu ? 1 : undefined }}
      />
      <IconButton type="submit" color="inherit" size="small" aria-label={t('nav.searchSubmit')}>
        <SearchIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

/** The brand at the bar's start: the white-label's header image or its title. */
function Brand({ compact }: { compact: boolean }) {
  const { data: whitelabel } = useWhitelabel();
  return whitelabel?.headerImageUrl ? (
    <Box
      component="img"
      src={whitelabel.headerImageUrl}
      alt={whitelabel.title}
      sx={{ height: compact ? 28 : 36, mr: compact ? 1 : 2, maxWidth: compact ? '50vw' : undefined }}
    />
  ) : (
    <Typography variant="h6" component="div" noWrap sx={{ mr: compact ? 1 : 2, minWidth: 0 }}>
      {whitelabel?.title}
    </Typography>
  );
}

/** The links the user's role opens: main entries, then one's tours as driver (app users up), contacts and settings (ROLE_USER up). */
function useEntries(user: CurrentUser) {
  const isUser = hasRole(user.role, 'ROLE_USER');
  return {
    main: ENTRIES.filter((entry) => hasRole(user.role, entry.minimum)),
    personal: [
      // A driver may be an app user: the tours it drives are its own from that role up.
      ...(hasRole(user.role, 'ROLE_APP_USER')
        ? [{ to: '/driver', label: 'nav.driver', Icon: LocalShippingIcon }]
        : []),
      ...(isUser
        ? [
            { to: '/contacts', label: 'nav.contacts', Icon: ContactsIcon },
            { to: '/settings', label: 'nav.settings', Icon: SettingsIcon },
          ]
        : []),
    ],
  };
}

/** The compact bar's menu: a drawer that closes on Esc, a click beside it and every choice. */
function CompactMenu({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const { main, personal } = useEntries(user);
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const link = (to: string, label: string, icon?: ReactNode) => (
    <ListItemButton
      key={to}
      component={NavLink}
      to={to}
      onClick={close}
      sx={{ '&.active': { bgcolor: 'action.selected' } }}
    >
      {icon && <ListItemIcon>{icon}</ListItemIcon>}
      <ListItemText primary={t(label)} />
    </ListItemButton>
  );
  return (
    <>
      <IconButton
        color="inherit"
        edge="end"
        aria-label={t('nav.menu')}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'top-bar-menu' : undefined}
        onClick={() => setOpen(true)}
      >
        <MenuIcon />
      </IconButton>
      <Drawer
        anchor="right"
        open={open}
        onClose={close}
        slotProps={{
          paper: {
            id: 'top-bar-menu',
            role: 'dialog',
            'aria-label': t('nav.menu'),
            sx: { width: 300, maxWidth: '85vw' },
          },
        }}
      >
        <Box sx={{ p: 2 }}>
          <DeviceSearch inMenu onDone={close} />
        </Box>
        <Divider />
        <List component="nav" aria-label={t('nav.main')}>
          {main.map((entry) => link(entry.to, entry.label))}
        </List>
        {personal.length > 0 && (
          <>
            <Divider />
            <List>{personal.map(({ to, label, Icon }) => link(to, label, <Icon />))}</List>
          </>
        )}
        <Divider />
        <Box sx={{ p: 2 }}>
          <LanguageSwitch />
        </Box>
        <Divider />
        <List>
          <ListItemButton
            disabled={logout.isPending}
            onClick={() => {
              close();
              logout.mutate();
            }}
          >
            <ListItemIcon>
              <LogoutIcon />
            </ListItemIcon>
            <ListItemText primary={t('nav.logout')} />
          </ListItemButton>
        </List>
      </Drawer>
    </>
  );
}

export function TopBar({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const compact = useMediaQuery(COMPACT_QUERY, { noSsr: true });
  const { main, personal } = useEntries(user);
  if (compact)
    return (
      <AppBar position="static" component="header">
        <Toolbar sx={{ gap: 0.5, flexWrap: 'nowrap' }}>
          <Brand compact />
          <Box sx={{ flexGrow: 1 }} />
          <SystemNotificationsMenu />
          <CompactMenu user={user} />
        </Toolbar>
      </AppBar>
    );
  return (
    <AppBar position="static" component="header">
      <Toolbar sx={{ maxWidth: LAYOUT_MAX_WIDTH, width: '100%', mx: 'auto', gap: 1, flexWrap: 'wrap' }}>
        <Brand compact={false} />
        <Box component="nav" sx={{ display: 'flex', gap: 0.5 }} aria-label="main">
          {main.map((entry) => (
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
        {personal.map(({ to, label, Icon }) => (
          <Tooltip key={to} title={t(label)}>
            <IconButton color="inherit" component={NavLink} to={to} aria-label={t(label)}>
              <Icon />
            </IconButton>
          </Tooltip>
        ))}
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
