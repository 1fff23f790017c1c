import { useId, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import HistoryIcon from '@mui/icons-material/History';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import ManageHistoryIcon from '@mui/icons-material/ManageHistory';
import SupervisorAccountIcon from '@mui/icons-material/SupervisorAccount';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { hasRole } from '@tankportal/shared/roles';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog.tsx';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { SideMenu } from '../../../components/side-menu.tsx';
import { pathId } from '../../../lib/path-id.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useImpersonate, useUser, type UserView } from '../api/user.ts';
import { impersonationBlock } from '../lib/impersonation-block.ts';
import { AccessPage } from './access/access-page.tsx';
import { AccountPage } from './account/account-page.tsx';
import { UserChangesPage } from './changes-page.tsx';
import { LoginHistoryPage } from './login-history-page.tsx';

/** The pages of one user below /users/{id}. */
const PAGES = [
  { page: 'account', label: 'users.menu.account', Icon: AccountCircleIcon, masterOnly: false },
  { page: 'access', label: 'users.menu.access', Icon: VpnKeyIcon, masterOnly: false },
  { page: 'changes', label: 'changes.title', Icon: ManageHistoryIcon, masterOnly: false },
  { page: 'login-history', label: 'users.menu.loginHistory', Icon: HistoryIcon, masterOnly: true },
] as const;

/**
 * /users/{id}/*: an id that is none, a user the server does not show (unknown, deleted, outside the
 * actor's subtree: 404) and the root of the tree (no parent) lead back to /users.
 */
export function UserArea() {
  const { t } = useTranslation();
  const userId = pathId(useParams().userId);
  const query = useUser(userId);
  return (
    <EditDialogLoader
      query={userId === null ? null : query}
      closeTo="/users"
      notFoundText={t('users.notFound')}
    >
      {(user) => (user.parentUser === null ? <Navigate to="/users" replace /> : <UserPages user={user} />)}
    </EditDialogLoader>
  );
}

function UserPages({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const actor = useCurrentUser().data!;
  const master = hasRole(actor.role, 'ROLE_MASTER');
  const base = `/users/${user.id}`;
  const current = useLocation()
    .pathname.slice(base.length + 1)
    .split('/')[0];
  const pages = PAGES.filter((page) => master || !page.masterOnly);
  return (
    <Box component="section" sx={{ py: 3 }} data-testid="user-area">
      <InfoBar user={user} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <SideMenu
          label={t('users.menu.label')}
          entries={[
            { to: '/users', label: t('users.menu.overview'), Icon: ArrowBackIcon },
            ...pages.map(({ page, label, Icon }) => ({
              to: `${base}/${page}`,
              label: t(label),
              Icon,
              selected: current === page,
            })),
          ]}
        />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Routes>
            {/* Absolute: under the catch-all route "account" would resolve below the unknown
                segment (/users/3/bogus/account, again and again). */}
            <Route index element={<Navigate to={`${base}/account`} replace />} />
            <Route path="account/*" element={<AccountPage key={user.id} user={user} />} />
            <Route path="access/*" element={<AccessPage key={user.id} user={user} />} />
            <Route path="changes" element={<UserChangesPage key={user.id} userId={user.id} />} />
            {master && <Route path="login-history" element={<LoginHistoryPage userId={user.id} />} />}
            <Route path="*" element={<Navigate to={`${base}/account`} replace />} />
          </Routes>
        </Box>
      </Stack>
    </Box>
  );
}

/** Username and name, and the actions on the user as a whole. */
function InfoBar({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actor = useCurrentUser().data!;
  const impersonate = useImpersonate();
  const [asking, setAsking] = useState(false);
  const blocked = impersonationBlock(actor, user);
  const blockedId = useId();
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="user-info-bar">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        justifyContent="space-between"
        alignItems={{ sm: 'center' }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
            {user.username}
          </Typography>
          <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ flexWrap: 'wrap' }}>
            {user.name && <Typography color="text.secondary">{user.name}</Typography>}
            <Chip size="small" variant="outlined" label={t(`users.roles.${user.role}`)} />
            {user.status === 'locked' && <Chip size="small" color="warning" label={t('users.locked')} />}
          </Stack>
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            startIcon={<SupervisorAccountIcon />}
            disabled={blocked !== null}
            aria-describedby={blocked ? blockedId : undefined}
            onClick={() => setAsking(true)}
          >
            {t('users.impersonate.action')}
          </Button>
          {hasRole(actor.role, 'ROLE_ADMIN') && (
            <Button
              variant="outlined"
              startIcon={<PersonAddIcon />}
              onClick={() => void navigate(`/users/new?parent=${user.id}`)}
            >
              {t('users.addSubUser')}
            </Button>
          )}
        </Stack>
      </Stack>
      {/* A disabled button tells no one why: the reason stands beside it, and names it. */}
      {blocked && (
        <Typography
          id={blockedId}
          variant="body2"
          color="text.secondary"
          sx={{ mt: 1, textAlign: { sm: 'right' } }}
          data-testid="impersonate-blocked"
        >
          {t(`users.impersonate.blocked.${blocked}`, { username: user.username })}
        </Typography>
      )}
      {asking && (
        <ConfirmDialog
          title={t('users.impersonate.title')}
          text={t('users.impersonate.text', { username: user.username })}
          confirmLabel={t('users.impersonate.action')}
          pending={impersonate.isPending}
          onClose={() => setAsking(false)}
          onConfirm={() => impersonate.mutate(user.username)}
        />
      )}
    </Paper>
  );
}
