import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useRunSystemJob, useSystemJobs, type SystemJobView } from '../api/system-jobs.ts';
import { scheduleText } from '../lib/job-schedule-text.ts';
import { SystemTabs } from './system-tabs.tsx';

const COLUMNS = ['job', 'schedule', 'lastDue', 'nextDue', 'lastRun'] as const;

const running = (job: SystemJobView) => job.lastRun?.state === 'pending' || job.lastRun?.state === 'running';

/**
 * /system/jobs (master): the recurring jobs with their schedule, last and next due time and newest
 * run; "Run now" puts one run into the queue at once, after a confirmation.
 */
export default function JobsPage() {
  const { t } = useTranslation();
  const jobs = useSystemJobs();
  const [asking, setAsking] = useState<SystemJobView | null>(null);
  return (
    <Page title={t('system.title')}>
      <SystemTabs />
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '75ch' }}>
          {t('system.jobs.hint')}
        </Typography>
        <QueryContent query={jobs}>{(list) => <JobTable jobs={list} onRun={setAsking} />}</QueryContent>
      </Stack>
      {asking && <RunDialog job={asking} onClose={() => setAsking(null)} />}
    </Page>
  );
}

function JobTable({ jobs, onRun }: { jobs: SystemJobView[]; onRun: (job: SystemJobView) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const label = (column: (typeof COLUMNS)[number] | 'actions') => t(`system.jobs.columns.${column}`);
  const time = (value: string | null) => (value ? formatDateTime(value, locale) : '–');
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="system-jobs-table">
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
                {label(column)}
              </TableCell>
            ))}
            <TableCell align="right">{label('actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {jobs.map((job) => (
            <TableRow key={job.name} data-testid={`system-job-${job.name}`}>
              <TableCell data-label={label('job')}>
                <Typography variant="body2">{t([`system.jobs.names.${job.name}`, job.name])}</Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {job.name}
                </Typography>
              </TableCell>
              <TableCell data-label={label('schedule')}>
                <span title={job.schedule ?? undefined}>{scheduleText(job.schedule, t)}</span>
              </TableCell>
              <TableCell data-label={label('lastDue')} sx={{ whiteSpace: { sm: 'nowrap' } }}>
                {time(job.lastDueAt)}
              </TableCell>
              <TableCell data-label={label('nextDue')} sx={{ whiteSpace: { sm: 'nowrap' } }}>
                {time(job.nextDueAt)}
              </TableCell>
              <TableCell data-label={label('lastRun')} data-testid="system-job-run">
                <RunState job={job} />
              </TableCell>
              <TableCell data-label={label('actions')} align="right">
                <Button
                  size="small"
                  variant="outlined"
                  disabled={running(job)}
                  onClick={() => onRun(job)}
                  startIcon={
                    running(job) ? (
                      <CircularProgress size={16} color="inherit" aria-hidden />
                    ) : (
                      <PlayArrowIcon />
                    )
                  }
                  aria-label={`${t(running(job) ? 'system.jobs.inProgress' : 'system.jobs.runNow')}: ${t([`system.jobs.names.${job.name}`, job.name])}`}
                  data-testid="system-job-run-now"
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  {t(running(job) ? 'system.jobs.inProgress' : 'system.jobs.runNow')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The newest run: its state, attempts, when it finished and, for a failure, why. */
function RunState({ job }: { job: SystemJobView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const run = job.lastRun;
  if (!run) return <Typography variant="body2">{t('system.jobs.noRun')}</Typography>;
  const colour = run.state === 'done' ? 'success' : run.state === 'failed' ? 'error' : 'primary';
  return (
    <Box>
      <Chip
        size="small"
        color={colour}
        variant={run.state === 'done' ? 'outlined' : 'filled'}
        label={t(`system.jobs.states.${run.state}`)}
        data-testid="system-job-state"
      />
      <Typography variant="body2" component="div" sx={{ mt: 0.5 }}>
        {run.finishedAt
          ? t('system.jobs.finishedAt', { time: formatDateTime(run.finishedAt, locale) })
          : t('system.jobs.queuedAt', { time: formatDateTime(run.createdAt, locale) })}
        {run.attempts > 1 &&
          ` · ${t('system.jobs.attempts', { attempts: run.attempts, max: run.maxAttempts })}`}
      </Typography>
      {run.lastError && (
        <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {run.lastError}
        </Typography>
      )}
    </Box>
  );
}

function RunDialog({ job, onClose }: { job: SystemJobView; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const run = useRunSystemJob();
  const name = t([`system.jobs.names.${job.name}`, job.name]);
  return (
    <ConfirmDialog
      title={t('system.jobs.confirmTitle')}
      text={t('system.jobs.confirmText', { job: name })}
      confirmLabel={t('system.jobs.runNow')}
      pending={run.isPending}
      onClose={onClose}
      onConfirm={() =>
        run.mutate(job.name, {
          onSuccess: () => {
            enqueueSnackbar(t('system.jobs.started', { job: name }), { variant: 'success' });
            onClose();
          },
          onError: (error) => {
            const busy = error instanceof ApiError && error.status === 409;
            enqueueSnackbar(busy ? t('system.jobs.busy') : errorText(error, t), {
              variant: busy ? 'warning' : 'error',
            });
            onClose();
          },
        })
      }
    />
  );
}
