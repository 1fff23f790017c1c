import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import { changeEntryTexts, type ChangeEntryTexts, type ChangedObjectText } from '../../lib/change-texts.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { cardsOnPhone } from '../responsive-table.ts';

const COLUMNS = ['at', 'author', 'address', 'object', 'what'] as const;
type Column = (typeof COLUMNS)[number];

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
 * Entries of the record of changes: when, who, from where, (with `objectColumn`) what was changed,
 * and the action with each changed field's old and new value. A table on desktop, cards on a phone.
 */
export function ChangesTable({
  entries,
  objectColumn = false,
}: {
  entries: AuditEntry[];
  objectColumn?: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const label = (column: Column) => t(`changes.columns.${column}`);
  const columns = COLUMNS.filter((column) => objectColumn || column !== 'object');
  const cell = (column: Column, texts: ChangeEntryTexts) => {
    switch (column) {
      case 'at':
        return (
          <TableCell key={column} data-label={label(column)} sx={{ whiteSpace: 'nowrap' }}>
            {texts.at}
          </TableCell>
        );
      case 'author':
        return (
          <TableCell key={column} data-label={label(column)} data-testid="change-author">
            {texts.author}
          </TableCell>
        );
      case 'address':
        return (
          <TableCell key={column} data-label={label(column)}>
            {texts.address}
          </TableCell>
        );
      case 'object':
        return (
          <TableCell key={column} data-label={label(column)} data-testid="change-object">
            <ChangedObject object={texts.object} />
          </TableCell>
        );
      case 'what':
        return (
          <TableCell key={column} data-label={label(column)} data-stacked sx={{ minWidth: { sm: 280 } }}>
            <ChangeWhat texts={texts} />
          </TableCell>
        );
    }
  };
  return (
    <TableContainer>
      <Table size="small" sx={CARDS_WITH_WHAT_BELOW_ITS_NAME} data-testid="changes-table">
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column}>{label(column)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry) => {
            const texts = changeEntryTexts(entry, t, locale, { objectColumn });
            return (
              <TableRow key={entry.id} data-testid={`change-${entry.id}`} sx={{ verticalAlign: 'top' }}>
                {columns.map((column) => cell(column, texts))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The object's kind and id; a device as a link to its pages. */
function ChangedObject({ object }: { object: ChangedObjectText }) {
  const text = `${object.kind} ${object.id}`;
  return object.path ? (
    <Link component={RouterLink} to={object.path}>
      {text}
    </Link>
  ) : (
    text
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
