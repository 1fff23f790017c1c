import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import {
  UNASSIGNED_KINDS,
  useRemoveUnassignedDevice,
  useUnassignedDevices,
  type UnassignedDevice,
  type UnassignedKind,
} from '../../../lib/api/unassigned-devices.ts';
import { SystemTabs } from './system-tabs.tsx';

/**
 * /system/unassigned-devices (master): the net, IoT and LX-IoT senders no device has, newest
 * report first; removing one needs its ident typed. It is one row per sender, so
 * the removal is immediate; a sender that reports again is listed again.
 */
export default function UnassignedDevicesPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const [kind, setKind] = useState<UnassignedKind>('net');
  const devices = useUnassignedDevices(kind);
  const remove = useRemoveUnassignedDevice();
  const [removing, setRemoving] = useState<UnassignedDevice | null>(null);
  const columns = ['id', 'ident', 'host', 'lastReportedAt'] as const;
  return (
    <Page title={t('system.title')}>
      <SystemTabs />
      <Stack spacing={2}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={kind}
          onChange={(_event, next: UnassignedKind | null) => next && setKind(next)}
          aria-label={t('system.unassigned.kind')}
        >
          {UNASSIGNED_KINDS.map((value) => (
            <ToggleButton key={value} value={value}>
              {t(`system.unassigned.kinds.${value}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <QueryContent query={devices}>
          {(list) =>
            list.length === 0 ? (
              <Typography color="text.secondary" data-testid="unassigned-empty">
                {t('system.unassigned.empty')}
              </Typography>
            ) : (
              <TableContainer>
                <Table size="small" sx={cardsOnPhone} data-testid="unassigned-table">
                  <TableHead>
                    <TableRow>
                      {columns.map((column) => (
                        <TableCell key={column}>{t(`system.unassigned.columns.${column}`)}</TableCell>
                      ))}
                      <TableCell align="right">{t('system.unassigned.columns.actions')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {list.map((device) => (
                      <TableRow key={device.id} data-testid={`unassigned-${device.id}`}>
                        <TableCell data-label={t('system.unassigned.columns.id')}>{device.id}</TableCell>
                        <TableCell
                          data-label={t('system.unassigned.columns.ident')}
                          sx={{ overflowWrap: 'anywhere' }}
                        >
                          {device.ident}
                        </TableCell>
                        <TableCell data-label={t('system.unassigned.columns.host')}>
                          {device.host ?? '–'}
                        </TableCell>
                        <TableCell data-label={t('system.unassigned.columns.lastReportedAt')}>
                          {formatDateTime(device.lastReportedAt, locale)}
                        </TableCell>
                        <TableCell align="right" data-label={t('system.unassigned.columns.actions')}>
                          <Tooltip title={t('system.unassigned.remove')}>
                            <IconButton
                              size="small"
                              aria-label={`${t('system.unassigned.remove')}: ${device.ident}`}
                              onClick={() => setRemoving(device)}
                            >
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )
          }
        </QueryContent>
      </Stack>
      {removing && (
        <ConfirmDialog
          title={t('system.unassigned.remove')}
          text={t('system.unassigned.removeText', { ident: removing.ident })}
          confirmLabel={t('system.unassigned.remove')}
          danger
          // What the row shows as the sender: its ident, not the list's internal number.
          expected={removing.ident}
          pending={remove.isPending}
          onClose={() => setRemoving(null)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => {
                enqueueSnackbar(t('system.unassigned.removed'), { variant: 'success' });
                setRemoving(null);
              },
            })
          }
        />
      )}
    </Page>
  );
}
