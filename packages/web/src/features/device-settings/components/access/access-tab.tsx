import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { Ace } from '@tankportal/shared/schemas/aces';
import { ConfirmDialog } from '../../../../components/dialogs/confirm-dialog.tsx';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import { pathId } from '../../../../lib/path-id.ts';
import { errorText } from '../../../../lib/error-texts.ts';
import { Loading } from '../../../../components/loading.tsx';
import { useCurrentUser } from '../../../../lib/session.ts';
import { useAceMutations, useAces } from '../../../../lib/api/aces.ts';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { devicePath } from '../../../../lib/device-path.ts';
import { EditAceDialog } from '../../../../components/access/edit-ace-dialog.tsx';
import { NewAceDialog } from './new-ace-dialog.tsx';

/**
 * /devices/{id}/settings/access (DELETE on the device): who else may do what with it. Nobody
 * edits or deletes their own entry or adds themselves; the server refuses it too.
 */
export default function AccessTab({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actorId = useCurrentUser().data?.id ?? 0;
  const { data: aces, isError, error } = useAces(device.id);
  const base = devicePath(device.id, 'settings/access');
  const close = () => void navigate(base);
  if (isError && !aces) return <Alert severity="error">{errorText(error, t)}</Alert>;
  if (!aces) return <Loading />;
  // Already granted, the owner (who holds every permission anyway) and the signed-in user.
  const exclude = [...new Set([...aces.map((ace) => ace.userId), device.user.id, actorId])];

  return (
    <Box data-testid="access-tab">
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h6" component="h2">
          {t('device-access.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate(`${base}/new`)}>
          {t('device-access.add')}
        </Button>
      </Stack>
      {aces.length === 0 ? (
        <Typography color="text.secondary" data-testid="access-empty">
          {t('device-access.empty')}
        </Typography>
      ) : (
        <AceTable aces={aces} actorId={actorId} base={base} />
      )}
      <Routes>
        <Route index element={null} />
        <Route path="new" element={<NewAceDialog deviceId={device.id} exclude={exclude} onClose={close} />} />
        <Route
          path=":aceId"
          element={<EditRoute deviceId={device.id} actorId={actorId} base={base} onClose={close} />}
        />
        <Route
          path=":aceId/delete"
          element={
            <DeleteRoute deviceId={device.id} aces={aces} actorId={actorId} base={base} onClose={close} />
          }
        />
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
    </Box>
  );
}

function AceTable({ aces, actorId, base }: { aces: Ace[]; actorId: number; base: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <TableContainer>
      <Table size="small" data-testid="access-table" sx={cardsOnPhone}>
        <TableHead>
          <TableRow>
            <TableCell>{t('device-access.username')}</TableCell>
            <TableCell>{t('device-access.permissionsColumn')}</TableCell>
            <TableCell align="right">{t('device-access.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {aces.map((ace) => (
            <TableRow key={ace.id} data-testid={`ace-${ace.username}`}>
              <TableCell data-label={t('device-access.username')}>{ace.username}</TableCell>
              <TableCell data-label={t('device-access.permissionsColumn')}>
                {ace.permissions.map((permission) => t(`device-access.permissions.${permission}`)).join(', ')}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} data-label={t('device-access.actions')}>
                {ace.userId === actorId ? (
                  <Typography variant="body2" color="text.secondary">
                    {t('device-access.own')}
                  </Typography>
                ) : (
                  <>
                    <Tooltip title={t('device-access.edit')}>
                      <IconButton
                        aria-label={t('device-access.edit')}
                        onClick={() => void navigate(`${base}/${ace.id}`)}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('device-access.delete')}>
                      <IconButton
                        aria-label={t('device-access.delete')}
                        onClick={() => void navigate(`${base}/${ace.id}/delete`)}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

interface AceRouteProps {
  deviceId: number;
  actorId: number;
  base: string;
  onClose: () => void;
}

const useAceId = () => pathId(useParams().aceId);

function EditRoute({ deviceId, actorId, base, onClose }: AceRouteProps) {
  const aceId = useAceId();
  return (
    <EditAceDialog
      key={aceId}
      deviceId={deviceId}
      aceId={aceId}
      actorId={actorId}
      closeTo={base}
      onClose={onClose}
    />
  );
}

/** /settings/access/{aceId}/delete: asks first; a refused delete keeps the dialog, silently. */
function DeleteRoute({ deviceId, aces, actorId, base, onClose }: AceRouteProps & { aces: Ace[] }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { remove } = useAceMutations(deviceId);
  const aceId = useAceId();
  const ace = aces.find((entry) => entry.id === aceId);
  if (!ace || ace.userId === actorId) return <Navigate to={base} replace />;
  return (
    <ConfirmDialog
      title={t('device-access.deleteTitle')}
      text={t('device-access.deleteText', { username: ace.username })}
      confirmLabel={t('device-access.delete')}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(ace.id, {
          onSuccess: () => {
            enqueueSnackbar(t('device-access.responses.deleted'), { variant: 'success' });
            onClose();
          },
        })
      }
    />
  );
}
