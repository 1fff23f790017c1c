import { useCallback, useId, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import type { TFunction } from 'i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination, { tablePaginationClasses } from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import { BLOCK_QUERY_NOT_REPORTED_SINCE } from '@tankportal/shared/schemas/block-queries';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { devicePath } from '../../../lib/device-path.ts';
import {
  isFinished,
  isUnderWay,
  useBlockQueryProgress,
  useSmsDeviceIds,
  useStartBlockQuery,
  type BlockQueryEntry,
  type StartedBlockQuery,
} from '../api/block-queries.ts';
import { deviceIdErrors } from '../lib/device-id-errors.ts';
import { DeviceChoice, type ChoosableDevice } from './device-choice.tsx';

/** Lists inside dialogs page by 10. */
const PER_PAGE = 10;

/** What the server's refusal of a block query says, in the user's words; undefined for none. */
function refusalText(error: unknown, sentIds: readonly number[], t: TFunction): string | undefined {
  const errors = deviceIdErrors(error, sentIds);
  if (!errors) return undefined;
  const texts = errors.others.map((fieldError) =>
    fieldError.path === 'deviceIds' && fieldError.code === 'required'
      ? t('blockQueries.errors.noDevices')
      : fieldErrorText(t, fieldError),
  );
  if (errors.refused.length)
    texts.unshift(
      t('blockQueries.errors.refused', { ids: errors.refused.join(', '), count: errors.refused.length }),
    );
  return texts.join(' ');
}

/**
 * /devices/block-queries: queries many SMS and LX-IoT devices at once. The
 * devices are chosen from those with the QUERY permission; after the start each device's query is
 * followed (polled every 5 s) until all have ended.
 */
export default function BlockQueriesDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [chosen, setChosen] = useState<number[]>([]);
  const [refused, setRefused] = useState<string | undefined>();
  const [started, setStarted] = useState<StartedBlockQuery | null>(null);
  // The devices seen while choosing, to name them in the result.
  const [known, setKnown] = useState<ReadonlyMap<number, ChoosableDevice>>(() => new Map());
  const remember = useCallback(
    (devices: ChoosableDevice[]) =>
      setKnown((before) => new Map([...before, ...devices.map((device) => [device.id, device] as const)])),
    [],
  );
  const start = useStartBlockQuery();
  const close = () => void navigate('/devices');

  const submit = () => {
    setRefused(undefined);
    const sent = chosen;
    start.mutate(sent, {
      onSuccess: (answer) => {
        enqueueSnackbar(t('blockQueries.responses.ok'), { variant: 'success' });
        setStarted(answer);
      },
      onError: (error) => setRefused(refusalText(error, sent, t)),
    });
  };

  return (
    <Dialog
      open
      onClose={close}
      fullWidth
      fullScreen={phone}
      maxWidth="md"
      scroll="paper"
      aria-labelledby={titleId}
      data-testid="block-queries-dialog"
    >
      <DialogTitle id={titleId}>{t('blockQueries.title')}</DialogTitle>
      {started ? (
        <BlockQueryResult started={started} known={known} onClose={close} />
      ) : (
        <>
          <DialogContent dividers>
            <DialogContentText sx={{ mb: 2 }}>{t('blockQueries.hint')}</DialogContentText>
            <DeviceChoice
              permission="QUERY"
              value={chosen}
              onChange={(ids) => {
                setChosen(ids);
                setRefused(undefined);
              }}
              notReportedChoices={BLOCK_QUERY_NOT_REPORTED_SINCE}
              onDevicesShown={remember}
              error={refused}
              labelledBy={titleId}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button
              variant="contained"
              disabled={!chosen.length || start.isPending}
              loading={start.isPending}
              onClick={submit}
              data-testid="block-queries-submit"
            >
              {t('blockQueries.submit', { count: chosen.length })}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

/** The block query's progress: per device a spinner while under way, then how it ended. */
function BlockQueryResult({
  started,
  known,
  onClose,
}: {
  started: StartedBlockQuery;
  known: ReadonlyMap<number, ChoosableDevice>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const progress = useBlockQueryProgress(started);
  const blockQuery = progress.data;
  const [pageIndex, setPageIndex] = useState(0);
  const entries = [...blockQuery.queries].sort((a, b) => a.deviceId - b.deviceId);
  const failed = entries.filter((entry) => entry.status === 'failed').length;
  const processed = entries.filter((entry) => entry.status === 'processed').length;
  const underWay = entries.filter(isUnderWay).length;
  const finished = isFinished(blockQuery);
  // The channel's words for a failure: SMS unless the device is known to be an LX-IoT one.
  const smsIds = useSmsDeviceIds(failed > 0).data;
  const channelOf = (deviceId: number) => {
    const type = known.get(deviceId)?.type;
    if (type) return type === 'lx_iot' ? 'mqtt' : 'sms';
    return smsIds && !smsIds.has(deviceId) ? 'mqtt' : 'sms';
  };
  const shown = entries.slice(pageIndex * PER_PAGE, (pageIndex + 1) * PER_PAGE);

  return (
    <>
      <DialogContent dividers>
        <Stack spacing={1.5}>
          <Typography data-testid="block-query-summary" aria-live="polite">
            {t('blockQueries.result.summary', { processed, failed, underWay, total: entries.length })}
          </Typography>
          {finished ? (
            <Alert severity={failed ? 'warning' : 'success'} data-testid="block-query-finished">
              {t('blockQueries.result.finished')}
            </Alert>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('blockQueries.result.polling')}
            </Typography>
          )}
          {progress.isError && (
            <Typography variant="body2" color="warning.main">
              {t('blockQueries.result.pollFailed')}
            </Typography>
          )}
          <TableContainer>
            <Table size="small" sx={cardsOnPhone} aria-label={t('blockQueries.result.label')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('blockQueries.result.device')}</TableCell>
                  <TableCell>{t('blockQueries.result.status')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((entry) => (
                  <TableRow key={entry.deviceId} data-testid={`block-query-${entry.deviceId}`}>
                    <TableCell data-label={t('blockQueries.result.device')}>
                      <Link
                        component={RouterLink}
                        to={devicePath(entry.deviceId)}
                        target="_blank"
                        rel="noopener"
                      >
                        {[entry.deviceId, known.get(entry.deviceId)?.name].filter(Boolean).join(' · ')}
                      </Link>
                    </TableCell>
                    <TableCell data-label={t('blockQueries.result.status')}>
                      <EntryStatus entry={entry} channel={channelOf(entry.deviceId)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {entries.length > PER_PAGE && (
            <TablePagination
              component="div"
              count={entries.length}
              page={pageIndex}
              rowsPerPage={PER_PAGE}
              rowsPerPageOptions={[]}
              onPageChange={(_event, next) => setPageIndex(next)}
              labelDisplayedRows={({ from, to, count }) =>
                t('devices.list.displayedRows', { from, to, count })
              }
              getItemAriaLabel={(type) => t(`devices.list.${type}Page`)}
              sx={{ [`& .${tablePaginationClasses.toolbar}`]: { px: 0 } }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant={finished ? 'contained' : 'text'} onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </>
  );
}

function EntryStatus({ entry, channel }: { entry: BlockQueryEntry; channel: 'sms' | 'mqtt' }) {
  const { t } = useTranslation();
  const label = t(`blockQueries.status.${entry.status}`);
  if (isUnderWay(entry))
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-status={entry.status}>
        <CircularProgress size={16} aria-label={label} />
        <Typography variant="body2">{label}</Typography>
      </Stack>
    );
  const ok = entry.status === 'processed';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-status={entry.status}>
      {ok ? (
        <CheckCircleIcon fontSize="small" color="success" />
      ) : (
        <ErrorIcon fontSize="small" color="error" />
      )}
      <Typography variant="body2" color={ok ? undefined : 'error'}>
        {ok
          ? label
          : t('queries.failed', { reason: t(`queries.failures.${channel}.${entry.failure ?? 'refused'}`) })}
      </Typography>
    </Stack>
  );
}
