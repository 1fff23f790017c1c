import { useState, type ReactNode } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { format, subDays } from 'date-fns';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { NumberedPages } from '../../../components/numbered-pages.tsx';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  MESSAGE_DIRECTIONS,
  MESSAGE_MODES,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  type MessageType,
} from '@tankportal/shared/devices';
import {
  MESSAGE_DEFAULT_PAGE_SIZE,
  MESSAGE_PAGE_SIZES,
  MESSAGE_SORT_KEYS,
} from '@tankportal/shared/schemas/messages';
import { DayRangeFields } from '../../../components/day-range-fields.tsx';
import { PreviousNextPages } from '../../../components/previous-next-pages.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { messageKeys } from '../../../lib/api/messages.ts';
import { useMessages, type MessageFilter, type MessageView } from '../api/messages.ts';
import { isKnownCommand, messagePreview, statusTone } from '../lib/preview.ts';
import { MessageDetailDialog } from './message-detail-dialog.tsx';

/** The filter looks 4 days back by default. */
const DEFAULT_DAYS_BACK = 4;
const DAY_FORMAT = 'yyyy-MM-dd';
/** Every order the server sorts by: each key both ways, newest first by default. */
const SORTS = MESSAGE_SORT_KEYS.flatMap((key) => [`${key}:desc`, `${key}:asc`] as const);

const defaultFilter = (type?: MessageType): MessageFilter => {
  const today = new Date();
  return {
    from: format(subDays(today, DEFAULT_DAYS_BACK), DAY_FORMAT),
    to: format(today, DAY_FORMAT),
    type,
    sort: 'createdAt:desc',
    perPage: MESSAGE_DEFAULT_PAGE_SIZE,
    page: 1,
  };
};

interface MessageLogProps {
  /** A device's messages (numbered pages with the total); the global log without it. */
  deviceId?: number;
  /** Where the log lives; the detail of a message opens at `{base}/{messageId}`. */
  base: string;
  defaultType?: MessageType;
  /** Above the filters, beside the heading (the send button). */
  actions?: ReactNode;
  /** Further routes below `base` (the send dialog). */
  children?: ReactNode;
}

/**
 * A message log with its filters: time (days typed in the portal's date format, future days
 * refused), type, direction, mode, status, order and page size; the rows show the content's start,
 * the status as a colour bar and open their detail. The pages stay put while new messages arrive (`max_id`) until
 * the filter changes or the user refreshes.
 */
export function MessageLog({ deviceId, base, defaultType, actions, children }: MessageLogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filter, setFilter] = useState(() => defaultFilter(defaultType));
  const messages = useMessages(filter, deviceId);
  const global = deviceId === undefined;
  const change = (next: Partial<MessageFilter>) =>
    setFilter({ ...filter, ...next, page: 1, maxId: undefined });
  const queryClient = useQueryClient();
  // The same filter is the same query: without fetching again, a refresh would show the cache.
  const refresh = () => {
    change({});
    void queryClient.invalidateQueries({ queryKey: messageKeys.all });
  };
  const goTo = (page: number) => setFilter({ ...filter, page, maxId: filter.maxId ?? messages.data?.maxId });

  return (
    <Stack spacing={2} data-testid="message-log">
      <Stack
        direction="row"
        justifyContent="space-between"
        alignItems="center"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
      >
        {/* The global log's page has the heading already. */}
        {!global && (
          <Typography variant="h6" component="h2">
            {t('messages.title')}
          </Typography>
        )}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', ml: 'auto' }}>
          <Button startIcon={<RefreshIcon />} onClick={refresh}>
            {t('messages.refresh')}
          </Button>
          {actions}
        </Stack>
      </Stack>
      <Filters filter={filter} onChange={change} />
      <Box sx={{ height: 4 }}>{messages.isFetching && <LinearProgress />}</Box>
      <QueryContent query={messages}>
        {(page) =>
          page.items.length === 0 ? (
            <Typography color="text.secondary" data-testid="messages-empty">
              {t('messages.noData')}
            </Typography>
          ) : (
            <>
              {page.total !== null && (
                <Typography variant="body2" color="text.secondary">
                  {t('messages.count', { count: page.total })}
                </Typography>
              )}
              <MessageTable
                items={page.items}
                withDevice={global}
                onOpen={(message) => void navigate(`${base}/${message.id}`)}
              />
              {page.total !== null ? (
                page.total > filter.perPage && (
                  <NumberedPages
                    count={Math.ceil(page.total / filter.perPage)}
                    page={filter.page}
                    onPageChange={goTo}
                    siblingCount={0}
                  />
                )
              ) : (
                <PreviousNextPages page={filter.page} hasMore={page.hasMore} onPageChange={goTo} />
              )}
            </>
          )
        }
      </QueryContent>
      <Routes>
        <Route index element={null} />
        {children}
        <Route
          path=":messageId"
          element={
            <MessageDetailDialog
              items={messages.data?.items ?? []}
              base={base}
              deviceId={deviceId}
              onClose={() => void navigate(base)}
            />
          }
        />
      </Routes>
    </Stack>
  );
}

type ChoiceKey = 'type' | 'direction' | 'mode' | 'status';

function Filters({
  filter,
  onChange,
}: {
  filter: MessageFilter;
  onChange: (next: Partial<MessageFilter>) => void;
}) {
  const { t } = useTranslation();
  const choice = (
    key: ChoiceKey,
    label: string,
    values: readonly string[],
    valueLabel: (value: never) => string,
  ) => (
    <TextField
      select
      size="small"
      label={label}
      value={filter[key] ?? ''}
      onChange={(event) => onChange({ [key]: event.target.value || undefined })}
      // "All" shows as the choice when none is made.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 140, flex: '1 1 9rem' }}
    >
      <MenuItem value="">{t('messages.all')}</MenuItem>
      {values.map((value) => (
        <MenuItem key={value} value={value}>
          {valueLabel(value as never)}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="message-filters">
      <DayRangeFields from={filter.from} to={filter.to} onChange={onChange} />
      {choice('type', t('messages.fields.type'), MESSAGE_TYPES, (value: MessageType) =>
        t(`messages.types.${value}`),
      )}
      {choice(
        'direction',
        t('messages.fields.direction'),
        MESSAGE_DIRECTIONS,
        (value: (typeof MESSAGE_DIRECTIONS)[number]) => t(`messages.directions.${value}`),
      )}
      {choice('mode', t('messages.fields.mode'), MESSAGE_MODES, (value: (typeof MESSAGE_MODES)[number]) =>
        t(`messages.modes.${value}`),
      )}
      {choice(
        'status',
        t('messages.fields.status'),
        MESSAGE_STATUSES,
        (value: (typeof MESSAGE_STATUSES)[number]) => t(`messages.statuses.${value}`),
      )}
      <TextField
        select
        size="small"
        label={t('messages.fields.sort')}
        value={filter.sort}
        onChange={(event) => onChange({ sort: event.target.value as MessageFilter['sort'] })}
        sx={{ minWidth: 180, flex: '1 1 11rem' }}
      >
        {SORTS.map((sort) => (
          <MenuItem key={sort} value={sort}>
            {t(`messages.sorts.${sort.replace(':', '_')}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('messages.fields.perPage')}
        value={filter.perPage}
        onChange={(event) => onChange({ perPage: Number(event.target.value) })}
        sx={{ minWidth: 110, flex: '0 1 8rem' }}
      >
        {MESSAGE_PAGE_SIZES.map((size) => (
          <MenuItem key={size} value={size}>
            {size}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

const COLUMNS = [
  'createdAt',
  'device',
  'type',
  'direction',
  'fromTo',
  'content',
  'indication',
  'status',
] as const;

function MessageTable({
  items,
  withDevice,
  onOpen,
}: {
  items: MessageView[];
  withDevice: boolean;
  onOpen: (message: MessageView) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const columns = COLUMNS.filter((column) => withDevice || column !== 'device');
  const cell = (message: MessageView, column: (typeof COLUMNS)[number]): ReactNode => {
    switch (column) {
      case 'createdAt':
        return formatDateTime(message.createdAt, locale);
      case 'device':
        return message.device ? `${message.device.id} – ${message.device.name}` : t('messages.noDevice');
      case 'type':
        return t(`messages.types.${message.type}`);
      case 'direction':
        return t(`messages.directions.${message.direction}`);
      case 'fromTo':
        return [message.from, message.to].map((ident) => ident ?? '–').join(' → ');
      case 'content':
        return <Preview message={message} />;
      case 'indication':
        return message.indication ?? '–';
      case 'status':
        return t(`messages.statuses.${message.status}`);
    }
  };
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="message-table">
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column}>{t(`messages.columns.${column}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((message) => (
            <TableRow
              key={message.id}
              hover
              tabIndex={0}
              data-testid={`message-${message.id}`}
              onClick={() => onOpen(message)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') onOpen(message);
              }}
              sx={{
                cursor: 'pointer',
                // The status as a colour bar at the row's start.
                '& td:first-of-type': {
                  borderLeft: 4,
                  borderLeftColor: `${statusTone(message.status)}.main`,
                },
              }}
            >
              {columns.map((column) => (
                <TableCell
                  key={column}
                  data-label={t(`messages.columns.${column}`)}
                  sx={column === 'content' ? { overflowWrap: 'anywhere', minWidth: { sm: 200 } } : undefined}
                >
                  {cell(message, column)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The start of a message's content in a line; a JSON report or command read out. */
function Preview({ message }: { message: MessageView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const preview = messagePreview(message.type, message.content);
  switch (preview.kind) {
    case 'text':
      return preview.text;
    case 'report': {
      const readings = preview.readings
        .map(({ sequence, value }) =>
          t('messages.preview.reading', {
            sequence,
            value:
              value === null
                ? t('messages.preview.noValue')
                : formatNumber(value, locale, Number.isInteger(value) ? 0 : 2),
          }),
        )
        .join(' · ');
      return preview.measuredAt
        ? t('messages.preview.report', { readings, at: formatDateTime(preview.measuredAt, locale) })
        : t('messages.preview.reportUndated', { readings });
    }
    case 'command':
      return t('messages.preview.command', {
        command: isKnownCommand(preview.command)
          ? t(`messages.preview.commands.${preview.command}`)
          : preview.command,
      });
    case 'placeholder':
      return (
        <Typography component="span" variant="body2" color="text.secondary" fontStyle="italic">
          {t(`messages.placeholders.${preview.label}`)}
        </Typography>
      );
  }
}
