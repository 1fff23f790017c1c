import { useState } from 'react';
import { Navigate, Route, Routes, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { NumberedPages } from '../../../../components/numbered-pages.tsx';
import AddIcon from '@mui/icons-material/Add';
import SyncIcon from '@mui/icons-material/Sync';
import { hasRole } from '@tankportal/shared/roles';
import { EditAceDialog } from '../../../../components/access/edit-ace-dialog.tsx';
import { DeleteConfirmDialog } from '../../../../components/dialogs/delete-confirm-dialog.tsx';
import { QueryContent } from '../../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import { EditDeleteActions } from '../../../../components/row-actions.tsx';
import { useAceMutations } from '../../../../lib/api/aces.ts';
import { pathId } from '../../../../lib/path-id.ts';
import { useCurrentUser } from '../../../../lib/session.ts';
import { ACCESS_PAGE_SIZE, useUserDevices, type UserDeviceView, type UserView } from '../../api/user.ts';
import { NewAccessDialog } from './new-access-dialog.tsx';
import { SyncAccessDialog } from './sync-access-dialog.tsx';

/**
 * /users/{id}/access: the devices the user owns or holds an access entry on, in
 * pages of 100, each with the user's permissions. An entry is edited or deleted only by who holds
 * the access-managing permission (DELETE) on its device, and nobody changes their own entries.
 */
export function AccessPage({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actor = useCurrentUser().data!;
  const [page, setPage] = useState(1);
  const devices = useUserDevices(user.id, page);
  const base = `/users/${user.id}/access`;
  const close = () => void navigate(base);
  const own = user.id === actor.id;
  const master = hasRole(actor.role, 'ROLE_MASTER');
  return (
    <Stack spacing={1} data-testid="user-access">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        justifyContent="space-between"
        alignItems={{ sm: 'center' }}
      >
        <Typography variant="h6" component="h2">
          {t('users.access.title')}
        </Typography>
        {!own && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {master && (
              <Button startIcon={<SyncIcon />} onClick={() => void navigate(`${base}/sync`)}>
                {t('users.access.sync.action')}
              </Button>
            )}
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate(`${base}/new`)}>
              {t('users.access.add')}
            </Button>
          </Stack>
        )}
      </Stack>
      <QueryContent query={devices}>
        {({ items, total }) =>
          total === 0 ? (
            <Typography color="text.secondary" data-testid="user-access-empty">
              {t('users.access.empty')}
            </Typography>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary">
                {t('users.access.count', { count: total })}
              </Typography>
              <AccessTable rows={items} base={base} changeable={!own} />
              {total > ACCESS_PAGE_SIZE && (
                <NumberedPages
                  count={Math.ceil(total / ACCESS_PAGE_SIZE)}
                  page={page}
                  onPageChange={setPage}
                  siblingCount={0}
                />
              )}
            </>
          )
        }
      </QueryContent>
      <Routes>
        <Route index element={null} />
        {!own && <Route path="new" element={<NewAccessDialog user={user} onClose={close} />} />}
        {!own && master && <Route path="sync" element={<SyncAccessDialog user={user} onClose={close} />} />}
        {!own && (
          <Route
            path=":deviceId/:aceId"
            element={<EditRoute actorId={actor.id} closeTo={base} onClose={close} />}
          />
        )}
        {!own && (
          <Route
            path=":deviceId/:aceId/delete"
            element={<DeleteRoute rows={devices.data?.items} user={user} closeTo={base} onClose={close} />}
          />
        )}
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
    </Stack>
  );
}

function AccessTable({
  rows,
  base,
  changeable,
}: {
  rows: UserDeviceView[];
  base: string;
  changeable: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const permissionsOf = (row: UserDeviceView) =>
    row.userPermissions
      ? row.userPermissions.permissions
          .map((permission) => t(`device-access.permissions.${permission}`))
          .join(', ')
      : t('users.access.owner');
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="user-access-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('users.access.device')}</TableCell>
            <TableCell>{t('users.access.deviceOwner')}</TableCell>
            <TableCell>{t('device-access.permissionsColumn')}</TableCell>
            <TableCell align="right">{t('device-access.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const entry = row.userPermissions;
            const label = `${row.id} – ${row.name}`;
            return (
              <TableRow key={row.id} data-testid={`user-access-${row.id}`}>
                <TableCell data-label={t('users.access.device')} sx={{ minWidth: { sm: 180 } }}>
                  <Link component={RouterLink} to={`/devices/${row.id}`}>
                    {label}
                  </Link>
                  {row.address.city && (
                    <Typography variant="body2" color="text.secondary" component="div">
                      {row.address.city}
                    </Typography>
                  )}
                </TableCell>
                <TableCell data-label={t('users.access.deviceOwner')}>{row.user.username}</TableCell>
                <TableCell data-label={t('device-access.permissionsColumn')}>{permissionsOf(row)}</TableCell>
                <TableCell
                  align="right"
                  sx={{ whiteSpace: 'nowrap' }}
                  data-label={t('device-access.actions')}
                >
                  {changeable && entry && row.permissions.includes('DELETE') && (
                    <EditDeleteActions
                      editTo={`${base}/${row.id}/${entry.aceId}`}
                      onDelete={() => void navigate(`${base}/${row.id}/${entry.aceId}/delete`)}
                      editLabel={t('device-access.edit')}
                      deleteLabel={t('device-access.delete')}
                      name={label}
                    />
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

const useEntryParams = () => {
  const params = useParams();
  return { deviceId: pathId(params.deviceId), aceId: pathId(params.aceId) };
};

/** /access/{deviceId}/{aceId}: the entry's permissions; one that does not load closes the dialog. */
function EditRoute({ actorId, closeTo, onClose }: { actorId: number; closeTo: string; onClose: () => void }) {
  const { deviceId, aceId } = useEntryParams();
  if (deviceId === null) return <Navigate to={closeTo} replace />;
  return (
    <EditAceDialog
      key={`${deviceId}/${aceId}`}
      deviceId={deviceId}
      aceId={aceId}
      actorId={actorId}
      closeTo={closeTo}
      onClose={onClose}
    />
  );
}

/** /access/{deviceId}/{aceId}/delete: asks first; only entries of the page shown are offered. */
function DeleteRoute({
  rows,
  user,
  closeTo,
  onClose,
}: {
  rows: UserDeviceView[] | undefined;
  user: UserView;
  closeTo: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { deviceId, aceId } = useEntryParams();
  const { remove } = useAceMutations(deviceId ?? 0);
  const row = rows?.find((candidate) => candidate.id === deviceId);
  if (!rows) return null;
  if (!row || row.userPermissions?.aceId !== aceId || aceId === null)
    return <Navigate to={closeTo} replace />;
  return (
    <DeleteConfirmDialog
      label={t('device-access.deleteTitle')}
      text={t('users.access.deleteText', { username: user.username, device: `${row.id} – ${row.name}` })}
      remove={remove}
      target={aceId}
      deletedText={t('device-access.responses.deleted')}
      onClose={onClose}
    />
  );
}
