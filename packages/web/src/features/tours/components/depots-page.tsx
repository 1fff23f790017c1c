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
import { useLocale } from '../../../lib/i18n.ts';
import { useDeleteDepot, useDepots } from '../api/depots.ts';
import type { DepotView } from '../api/types.ts';
import { DepotDialog } from './depot-dialog.tsx';
import { FleetListPage } from './fleet-list-page.tsx';

const BASE = '/tours/depots';

/** /tours/depots (dealer): where the trucks load and the tours start and end. */
export default function DepotsPage() {
  const depots = useDepots();
  const remove = useDeleteDepot();
  return (
    <FleetListPage
      kind="depots"
      query={depots}
      remove={remove}
      table={(list, onDelete) => <DepotTable depots={list} onDelete={onDelete} />}
      dialog={(depot, onClose) => <DepotDialog depot={depot} onClose={onClose} />}
    />
  );
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
