import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { ConfirmDialog } from '../../../../components/dialogs/confirm-dialog.tsx';
import { EditSection } from '../../../../components/edit-section.tsx';
import { QueryContent } from '../../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import {
  useDeviceRefDateQueries,
  useRemoveDeviceFromRefDateQuery,
  type DeviceRefDateQueryView,
} from '../../../../lib/api/ref-date-queries.ts';
import { ApiError } from '../../../../lib/api-client.ts';
import { errorText } from '../../../../lib/error-texts.ts';
import { intervalsText, intervalTypeText } from '../../../../lib/ref-date-texts.ts';

/**
 * The reference-date queries the device belongs to (on the metadata tab; shown with the
 * access-managing permission): who set each up and when it runs. Deleting a row takes the device
 * out of that query; the query itself and its other devices stay. A query's last device stays: the
 * server refuses, and the notice says to delete the query instead.
 */
export function RefDateQueriesSection({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const queries = useDeviceRefDateQueries(deviceId);
  const [removing, setRemoving] = useState<DeviceRefDateQueryView | null>(null);
  return (
    <EditSection id="metadata-ref-date-queries" title={t('refDateQueries.title')}>
      <QueryContent query={queries}>
        {(data) =>
          data.length === 0 ? (
            <Typography variant="body2" color="text.secondary" data-testid="device-ref-date-queries-empty">
              {t('refDateQueries.empty')}
            </Typography>
          ) : (
            <QueryTable queries={data} onRemove={setRemoving} />
          )
        }
      </QueryContent>
      {removing && <RemoveDialog deviceId={deviceId} query={removing} onClose={() => setRemoving(null)} />}
    </EditSection>
  );
}

function QueryTable({
  queries,
  onRemove,
}: {
  queries: DeviceRefDateQueryView[];
  onRemove: (query: DeviceRefDateQueryView) => void;
}) {
  const { t } = useTranslation();
  const columns = {
    user: t('refDateQueries.columns.user'),
    intervalType: t('refDateQueries.columns.intervalType'),
    intervals: t('refDateQueries.columns.intervals'),
    actions: t('refDateQueries.columns.actions'),
  };
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="device-ref-date-queries">
        <TableHead>
          <TableRow>
            <TableCell>{columns.user}</TableCell>
            <TableCell>{columns.intervalType}</TableCell>
            <TableCell>{columns.intervals}</TableCell>
            <TableCell align="right">{columns.actions}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {queries.map((query) => {
            const label = t('refDateQueries.removeDevice');
            return (
              <TableRow key={query.id} data-testid={`device-ref-date-query-${query.id}`}>
                <TableCell data-label={columns.user}>{query.username}</TableCell>
                <TableCell data-label={columns.intervalType}>
                  {intervalTypeText(query.intervalType, t)}
                </TableCell>
                <TableCell data-label={columns.intervals}>{intervalsText(query.intervals, t)}</TableCell>
                <TableCell align="right" data-label={columns.actions}>
                  <Tooltip title={label}>
                    <IconButton
                      size="small"
                      aria-label={`${label}: ${query.username}, ${intervalsText(query.intervals, t)}`}
                      onClick={() => onRemove(query)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function RemoveDialog({
  deviceId,
  query,
  onClose,
}: {
  deviceId: number;
  query: DeviceRefDateQueryView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const remove = useRemoveDeviceFromRefDateQuery(deviceId);
  return (
    <ConfirmDialog
      title={t('refDateQueries.removeDevice')}
      text={t('refDateQueries.removeDeviceText', {
        username: query.username,
        intervals: intervalsText(query.intervals, t),
      })}
      confirmLabel={t('refDateQueries.removeDeviceConfirm')}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(query.id, {
          onSuccess: () => {
            // The query stays: only this device left it.
            enqueueSnackbar(t('refDateQueries.responses.deviceRemoved'), { variant: 'success' });
            onClose();
          },
          onError: (error) => {
            // Its last device stays in the query: the query is deleted instead, in its list.
            const reason = error instanceof ApiError ? error.body?.fieldErrors?.[0]?.args?.reason : undefined;
            if (reason === 'last_device') {
              enqueueSnackbar(t('refDateQueries.errors.lastDevice'), { variant: 'error' });
              onClose();
              return;
            }
            enqueueSnackbar(errorText(error, t), { variant: 'error' });
          },
        })
      }
    />
  );
}
