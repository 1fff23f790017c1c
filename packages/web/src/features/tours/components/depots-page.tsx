import { useState } from 'react';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useDeleteDepot, useDepots } from '../api/depots.ts';
import type { DepotView } from '../api/types.ts';
import { DepotDialog } from './depot-dialog.tsx';
import { ToursTabs } from './tours-tabs.tsx';

const BASE = '/tours/depots';

/** /tours/depots (dealer): where the trucks load and the tours start and end. */
export default function DepotsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const depots = useDepots();
  const [deleting, setDeleting] = useState<DepotView | null>(null);
  const remove = useDeleteDepot();
  return (
    <Page title={t('tours.title')}>
      <ToursTabs />
      <Stack spacing={2}>
        <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={2}>
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '75ch' }}>
            {t('tours.depots.hint')}
          </Typography>
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => void navigate(`${BASE}/new`)}
            sx={{ flexShrink: 0 }}
          >
            {t('tours.depots.add')}
          </Button>
        </Stack>
        <QueryContent query={depots}>
          {(list) =>
            list.length === 0 ? (
              <Typography color="text.secondary" data-testid="depots-empty">
                {t('tours.depots.empty')}
              </Typography>
            ) : (
              <DepotTable depots={list} onDelete={setDeleting} />
            )
          }
        </QueryContent>
      </Stack>
      {deleting && (
        <DeleteConfirmDialog
          label={t('tours.depots.delete')}
          text={t('tours.depots.deleteText', { name: deleting.name })}
          remove={remove}
          target={deleting.id}
          deletedText={t('tours.depots.deleted', { name: deleting.name })}
          onClose={() => setDeleting(null)}
        />
      )}
      <Routes>
        <Route index element={null} />
        <Route path="new" element={<DepotDialog depot={null} onClose={() => void navigate(BASE)} />} />
        <Route path=":depotId" element={<EditDepot depots={depots.data} />} />
      </Routes>
    </Page>
  );
}

function EditDepot({ depots }: { depots: DepotView[] | undefined }) {
  const navigate = useNavigate();
  const { depotId } = useParams();
  if (!depots) return null;
  const depot = depots.find((candidate) => String(candidate.id) === depotId);
  if (!depot) return <Navigate to={BASE} replace />;
  return <DepotDialog depot={depot} onClose={() => void navigate(BASE)} />;
}

function DepotTable({ depots, onDelete }: { depots: DepotView[]; onDelete: (depot: DepotView) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const label = (column: string) => t(`tours.depots.columns.${column}`);
  const place = (depot: DepotView) =>
    [depot.street, [depot.postalCode, depot.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="depots-table">
        <TableHead>
          <TableRow>
            <TableCell>{label('name')}</TableCell>
            <TableCell>{label('address')}</TableCell>
            <TableCell>{label('position')}</TableCell>
            <TableCell align="right">{label('actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {depots.map((depot) => (
            <TableRow key={depot.id} data-testid={`depot-${depot.id}`}>
              <TableCell data-label={label('name')} sx={{ overflowWrap: 'anywhere' }}>
                {depot.name}
              </TableCell>
              <TableCell data-label={label('address')}>{place(depot) || '–'}</TableCell>
              <TableCell data-label={label('position')}>
                {depot.lat !== null && depot.lng !== null
                  ? `${formatNumber(depot.lat, locale, 4)}, ${formatNumber(depot.lng, locale, 4)}`
                  : '–'}
              </TableCell>
              <TableCell data-label={label('actions')} align="right" sx={{ whiteSpace: 'nowrap' }}>
                <EditDeleteActions
                  editTo={`${BASE}/${depot.id}`}
                  onDelete={() => onDelete(depot)}
                  editLabel={t('tours.depots.edit')}
                  deleteLabel={t('tours.depots.delete')}
                  name={depot.name}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
