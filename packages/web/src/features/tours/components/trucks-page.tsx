import { useTranslation } from 'react-i18next';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useContentTypeName } from '../../../lib/content-type-name.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useDepots } from '../api/depots.ts';
import { useDeleteTruck, useTrucks } from '../api/trucks.ts';
import type { TruckView } from '../api/types.ts';
import { TruckDialog } from './truck-dialog.tsx';
import { FleetListPage } from './fleet-list-page.tsx';

const BASE = '/tours/trucks';

/** /tours/trucks (dealer): the trucks with their compartments, each for one content and its litres. */
export default function TrucksPage() {
  const trucks = useTrucks();
  const remove = useDeleteTruck();
  return (
    <FleetListPage
      kind="trucks"
      query={trucks}
      remove={remove}
      table={(list, onDelete) => <TruckTable trucks={list} onDelete={onDelete} />}
      dialog={(truck, onClose) => <TruckDialog truck={truck} onClose={onClose} />}
    />
  );
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
