import { useId, useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { useLocale } from '../../../lib/i18n.ts';
import { useRefDateQueries, type RefDateQueryView } from '../../../lib/api/ref-date-queries.ts';
import {
  intervalsText,
  intervalTypeText,
  olderThanText,
  queryAtText,
  refDateTimeText,
} from '../../../lib/ref-date-texts.ts';
import {
  CreateRefDateQueryDialog,
  DeleteRefDateQueryDialog,
  EditRefDateQueryDialog,
  REF_DATE_QUERIES_PATH,
} from './ref-date-query-dialog.tsx';

/**
 * /devices/ref-date-queries[/new | /{id}]: the list, the new query and one
 * query's edit; any other sub-path leads to the list.
 */
export default function RefDateQueriesRoutes({ subPath }: { subPath: string }) {
  if (subPath === '') return <RefDateQueriesDialog />;
  if (subPath === 'new') return <CreateRefDateQueryDialog />;
  if (!subPath.includes('/')) return <EditRefDateQueryDialog key={subPath} segment={subPath} />;
  return <Navigate to={REF_DATE_QUERIES_PATH} replace />;
}

const COLUMNS = [
  'user',
  'intervalType',
  'intervals',
  'queryAt',
  'olderThan',
  'active',
  'devices',
  'lastRunAt',
  'nextRunAt',
] as const;
type Column = (typeof COLUMNS)[number];

/** The reference-date queries the user sees, each with its schedule, state and members. */
function RefDateQueriesDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const titleId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const queries = useRefDateQueries();
  const [deleting, setDeleting] = useState<RefDateQueryView | null>(null);
  const close = () => void navigate('/devices');
  return (
    <>
      <Dialog
        open
        onClose={close}
        fullWidth
        fullScreen={phone}
        maxWidth="lg"
        scroll="paper"
        aria-labelledby={titleId}
        data-testid="ref-date-queries-dialog"
      >
        <DialogTitle id={titleId}>
          <Stack
            direction="row"
            spacing={2}
            useFlexGap
            sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Box component="span">{t('refDateQueries.title')}</Box>
            <Button
              component={RouterLink}
              to={`${REF_DATE_QUERIES_PATH}/new`}
              variant="contained"
              startIcon={<AddIcon />}
            >
              {t('refDateQueries.new')}
            </Button>
          </Stack>
        </DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('refDateQueries.hint')}
          </Typography>
          <QueryContent query={queries}>
            {(data) =>
              data.length === 0 ? (
                <Typography color="text.secondary" data-testid="ref-date-queries-empty">
                  {t('refDateQueries.empty')}
                </Typography>
              ) : (
                <RefDateQueryTable queries={data} onDelete={setDeleting} />
              )
            }
          </QueryContent>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
      {deleting && <DeleteRefDateQueryDialog query={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}

function RefDateQueryTable({
  queries,
  onDelete,
}: {
  queries: RefDateQueryView[];
  onDelete: (query: RefDateQueryView) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const header = (column: Column) => t(`refDateQueries.columns.${column}`);
  const cells = (query: RefDateQueryView): Record<Column, string> => ({
    user: query.username,
    intervalType: intervalTypeText(query.intervalType, t),
    intervals: intervalsText(query.intervals, t),
    queryAt: queryAtText(query.queryAt, locale),
    olderThan: olderThanText(query.olderThan, t),
    active: t(query.isActive ? 'refDateQueries.activeStates.active' : 'refDateQueries.activeStates.inactive'),
    devices: String(query.deviceIds.length),
    lastRunAt: refDateTimeText(query.lastRunAt, locale, t),
    nextRunAt: refDateTimeText(query.nextRunAt, locale, t),
  });
  return (
    <TableContainer>
      <Table
        size="small"
        sx={cardsOnPhone}
        aria-label={t('refDateQueries.title')}
        data-testid="ref-date-queries-table"
      >
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column} align={column === 'devices' ? 'right' : undefined}>
                {header(column)}
              </TableCell>
            ))}
            <TableCell align="right">{t('refDateQueries.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {queries.map((query) => {
            const values = cells(query);
            const name = t('refDateQueries.queryName', { id: query.id });
            return (
              <TableRow key={query.id} hover data-testid={`ref-date-query-${query.id}`}>
                {COLUMNS.map((column) => (
                  <TableCell
                    key={column}
                    data-label={header(column)}
                    data-testid={`column-${column}`}
                    align={column === 'devices' ? 'right' : undefined}
                  >
                    {column === 'user' ? (
                      <Link component={RouterLink} to={`${REF_DATE_QUERIES_PATH}/${query.id}`}>
                        {values.user}
                      </Link>
                    ) : (
                      values[column]
                    )}
                  </TableCell>
                ))}
                <TableCell
                  align="right"
                  sx={{ whiteSpace: 'nowrap' }}
                  data-label={t('refDateQueries.columns.actions')}
                >
                  <EditDeleteActions
                    editTo={`${REF_DATE_QUERIES_PATH}/${query.id}`}
                    onDelete={() => onDelete(query)}
                    editLabel={t('refDateQueries.edit')}
                    deleteLabel={t('refDateQueries.delete')}
                    name={name}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
