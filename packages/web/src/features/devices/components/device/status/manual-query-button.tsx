import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import SyncIcon from '@mui/icons-material/Sync';
import { hasDevicePermission, type DeviceDetailView } from '../../../../../lib/api/devices.ts';
import { postManualQuery, queryOutcome, waitForOutcome } from '../../../api/queries.ts';

/** The fields of the device detail the button needs (the full DeviceDetailView fits). */
type QueryableDevice = Pick<DeviceDetailView, 'id' | 'type' | 'ident' | 'permissions'>;

const QUERYABLE_TYPES: readonly QueryableDevice['type'][] = ['sms', 'lx_iot'];

/**
 * Asks the device for a fresh measurement: SMS devices after a confirmation (a
 * query SMS costs money), LX-IoT devices at once. Polls until the device has answered, then shows
 * a notice and lets the page reload. A query the server could not send says so and why as soon
 * as the server knows (in its first answer, or a poll); only one left unanswered ends silently.
 */
export function ManualQueryButton({
  device,
  onProcessed,
}: {
  device: QueryableDevice;
  onProcessed: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const polling = useRef<AbortController | null>(null);
  // The latest callback, so a reload started by the parent meanwhile does not go stale.
  const processedCallback = useRef(onProcessed);
  useEffect(() => {
    processedCallback.current = onProcessed;
  }, [onProcessed]);
  useEffect(() => () => polling.current?.abort(), []);

  if (!hasDevicePermission(device, 'QUERY') || !QUERYABLE_TYPES.includes(device.type) || !device.ident)
    return null;

  async function query() {
    setConfirming(false);
    const controller = new AbortController();
    polling.current = controller;
    setRunning(true);
    try {
      const { location, query } = await postManualQuery(device.id);
      const outcome = queryOutcome(query) ?? (await waitForOutcome(location, controller.signal));
      if (outcome?.status === 'processed') {
        enqueueSnackbar(t('queries.processed'), { variant: 'success' });
        processedCallback.current();
      } else if (outcome?.status === 'failed') {
        enqueueSnackbar(
          t('queries.failed', {
            reason: t(`queries.failures.${device.type === 'lx_iot' ? 'mqtt' : 'sms'}.${outcome.failure}`),
          }),
          { variant: 'error' },
        );
      }
    } catch {
      // Left the page (aborted) or the query was refused: nothing to report once we are gone.
      if (!controller.signal.aborted) enqueueSnackbar(t('queries.notSent'), { variant: 'error' });
    } finally {
      if (!controller.signal.aborted) setRunning(false);
    }
  }

  return (
    <>
      <Button
        variant="outlined"
        startIcon={running ? <CircularProgress size={16} /> : <SyncIcon />}
        disabled={running}
        onClick={() => (device.type === 'sms' ? setConfirming(true) : void query())}
      >
        {running ? t('queries.running') : t('queries.button')}
      </Button>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="manual-query-title">
        <DialogTitle id="manual-query-title">{t('queries.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('queries.confirmText')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{t('common.cancel')}</Button>
          <Button variant="contained" onClick={() => void query()}>
            {t('queries.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
