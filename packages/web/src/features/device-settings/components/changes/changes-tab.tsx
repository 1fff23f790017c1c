import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import { QueryContent } from '../../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useLocale } from '../../../../lib/use-locale.ts';
import { CHANGES_PAGE_SIZE, useDeviceChanges } from '../../api/changes.ts';
import { changeEntryTexts, type ChangeEntryTexts } from '../../lib/change-texts.ts';

const COLUMNS = ['at', 'author', 'address', 'what'] as const;

/**
 * The table's cards on a phone, where the list of changed fields takes the card's whole width
 * below its column name instead of the narrow space beside it.
 */
const CARDS_WITH_WHAT_BELOW_ITS_NAME: SxProps<Theme> = [
  ...(Array.isArray(cardsOnPhone) ? cardsOnPhone : [cardsOnPhone]),
  (theme: Theme) => ({
    [theme.breakpoints.down('sm')]: {
      '& tbody td[data-stacked]': { flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 },
    },
  }),
];

/**
 * /devices/{id}/settings/changes (VIEW_CONFIGURATION, as the server checks): who changed the
 * device's base data, notes, owner, access entries or configuration, when and from where, each
 * changed field with its old and new value; newest first, a page at a time.
 */
export default function ChangesTab({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const changes = useDeviceChanges(device.id, page);
  return (
    <Stack spacing={1} data-testid="changes-tab">
      <Typography variant="h6" component="h2">
        {t('device-changes.title')}
      </Typography>
      <QueryContent query={changes}>
        {({ items, total }) =>
          total === 0 ? (
            <Typography color="text.secondary" data-testid="changes-empty">
              {t('device-changes.empty')}
            </Typography>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary">
                {t('device-changes.count', { count: total })}
              </Typography>
              <ChangesTable entries={items} />
              {total > CHANGES_PAGE_SIZE && (
                <Pagination
                  count={Math.ceil(total / CHANGES_PAGE_SIZE)}
                  page={page}
                  onChange={(_event, next) => setPage(next)}
                  siblingCount={0}
                  sx={{ alignSelf: 'center' }}
                />
              )}
            </>
          )
        }
      </QueryContent>
    </Stack>
  );
}

function ChangesTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const label = (column: (typeof COLUMNS)[number]) => t(`device-changes.columns.${column}`);
  return (
    <TableContainer>
      <Table size="small" sx={CARDS_WITH_WHAT_BELOW_ITS_NAME} data-testid="changes-table">
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column}>{label(column)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry) => {
            const texts = changeEntryTexts(entry, t, locale);
            return (
              <TableRow key={entry.id} data-testid={`change-${entry.id}`} sx={{ verticalAlign: 'top' }}>
                <TableCell data-label={label('at')} sx={{ whiteSpace: 'nowrap' }}>
                  {texts.at}
                </TableCell>
                <TableCell data-label={label('author')} data-testid="change-author">
                  {texts.author}
                </TableCell>
                <TableCell data-label={label('address')}>{texts.address}</TableCell>
                <TableCell data-label={label('what')} data-stacked sx={{ minWidth: { sm: 280 } }}>
                  <ChangeWhat texts={texts} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The action in words, then each changed field as "label: old → new". */
function ChangeWhat({ texts }: { texts: ChangeEntryTexts }) {
  return (
    <Box>
      <Typography variant="body2" fontWeight={500} data-testid="change-action">
        {texts.action}
      </Typography>
      {texts.fields.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5, overflowWrap: 'anywhere' }}>
          {texts.fields.map((field) => (
            <Typography
              component="li"
              variant="body2"
              key={field.path}
              data-testid={`change-field-${field.path}`}
            >
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {field.label}:
              </Box>{' '}
              {field.change}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}
