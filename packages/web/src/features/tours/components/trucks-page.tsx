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
import { useContentTypeName } from '../../../lib/content-type-name.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useDepots } from '../api/depots.ts';
import { useDeleteTruck, useTrucks } from '../api/trucks.ts';
import type { TruckView } from '../api/types.ts';
import { TruckDialog } from './truck-dialog.tsx';
import { ToursTabs } from './tours-tabs.tsx';

const BASE = '/tours/trucks';

/** /tours/trucks (dealer): the trucks with their compartments, each for one content and its litres. */
export default function TrucksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const trucks = useTrucks();
  const [deleting, setDeleting] = useState<TruckView | null>(null);
  const remove = useDeleteTruck();
  return (
    <Page title={t('tours.title')}>
      <ToursTabs />
      <Stack spacing={2}>
        <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={2}>
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '75ch' }}>
            {t('tours.trucks.hint')}
          </Typography>
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => void navigate(`${BASE}/new`)}
            sx={{ flexShrink: 0 }}
          >
            {t('tours.trucks.add')}
          </Button>
        </Stack>
        <QueryContent query={trucks}>
          {(list) =>
            list.length === 0 ? (
              <Typography color="text.secondary" data-testid="trucks-empty">
                {t('tours.trucks.empty')}
              </Typography>
            ) : (
              <TruckTable trucks={list} onDelete={setDeleting} />
            )
          }
        </QueryContent>
      </Stack>
      {deleting && (
        <DeleteConfirmDialog
          label={t('tours.trucks.delete')}
          text={t('tours.trucks.deleteText', { name: deleting.name })}
          remove={remove}
          target={deleting.id}
          deletedText={t('tours.trucks.deleted', { name: deleting.name })}
          onClose={() => setDeleting(null)}
        />
      )}
      <Routes>
        <Route index element={null} />
        <Route path="new" element={<TruckDialog truck={null} onClose={() => void navigate(BASE)} />} />
        <Route path=":truckId" element={<EditTruck trucks={trucks.data} />} />
      </Routes>
    </Page>
  );
}

function EditTruck({ trucks }: { trucks: TruckView[] | undefined }) {
  const navigate = useNavigate();
  const { truckId } = useParams();
  if (!trucks) return null;
  const truck = trucks.find((candidate) => String(candidate.id) === truckId);
  if (!truck) return <Navigate to={BASE} replace />;
  return <TruckDialog truck={truck} onClose={() => void navigate(BASE)} />;
}

function TruckTable({ trucks, onDelete }: { trucks: TruckView[]; onDelete: (truck: TruckView) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const contentName = useContentTypeName();
  const depots = useDepots();
  const label = (column: string) => t(`tours.trucks.columns.${column}`);
  const depotName = (id: number | null) =>
    id === null ? '–' : (depots.data?.find((depot) => depot.id === id)?.name ?? '–');
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="trucks-table">
        <TableHead>
          <TableRow>
            <TableCell>{label('name')}</TableCell>
            <TableCell>{label('plate')}</TableCell>
            <TableCell>{label('depot')}</TableCell>
            <TableCell>{label('compartments')}</TableCell>
            <TableCell align="right">{label('actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {trucks.map((truck) => (
            <TableRow key={truck.id} data-testid={`truck-${truck.id}`}>
              <TableCell data-label={label('name')} sx={{ overflowWrap: 'anywhere' }}>
                {truck.name}
              </TableCell>
              <TableCell data-label={label('plate')}>{truck.plate ?? '–'}</TableCell>
              <TableCell data-label={label('depot')}>{depotName(truck.depotId)}</TableCell>
              <TableCell data-label={label('compartments')}>
                {truck.compartments
                  .map((compartment) =>
                    t('tours.trucks.compartment', {
                      content: compartment.contentType
                        ? contentName(compartment.contentType)
                        : t('tours.trucks.anyContent'),
                      capacity: formatNumber(compartment.capacity, locale),
                    }),
                  )
                  .join(' · ')}
              </TableCell>
              <TableCell data-label={label('actions')} align="right" sx={{ whiteSpace: 'nowrap' }}>
                <EditDeleteActions
                  editTo={`${BASE}/${truck.id}`}
                  onDelete={() => onDelete(truck)}
                  editLabel={t('tours.trucks.edit')}
                  deleteLabel={t('tours.trucks.delete')}
                  name={truck.name}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
