import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination, { tablePaginationClasses } from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { DEVICE_SEARCH_DEBOUNCE_MS } from '@tankportal/shared/constants';
import type { DevicePermission } from '@tankportal/shared/devices';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { fetchPage } from '../../../lib/api/paged.ts';
import { useDebouncedValue } from '../../../lib/use-debounce.ts';
import { fetchChoosableIds, QUERYABLE_TYPES } from '../api/block-queries.ts';
import type { DeviceListItem } from '../../../lib/api/devices.ts';

/** Lists inside dialogs page by 10. */
const PER_PAGE = 10;

/** On a phone the row is a card: its checkbox cell takes the card's width like every other cell. */
const CHECKBOX_CELL: SxProps<Theme> = (theme) => ({ [theme.breakpoints.down('sm')]: { width: 'auto' } });

/** What a row of the choice shows of a device; the dialogs keep it to name devices later. */
export type ChoosableDevice = Pick<
  DeviceListItem,
  'id' | 'type' | 'name' | 'address' | 'user' | 'lastReportedAt'
>;

export interface DeviceChoiceProps {
  /** Only SMS and LX-IoT devices on which the actor holds this permission. */
  permission: Extract<DevicePermission, 'QUERY' | 'REF_DATE_QUERY'>;
  /** The chosen ids, ascending. */
  value: readonly number[];
  onChange: (ids: number[]) => void;
  /** Quick selections of the devices not reported since so many seconds (block queries). */
  notReportedChoices?: readonly number[];
  /** Each page's devices as they arrive (to name chosen devices later). */
  onDevicesShown?: (devices: ChoosableDevice[]) => void;
  /** Shown above the table, e.g. the devices the server refused. */
  error?: string;
  /** The id the table is labelled by. */
  labelledBy?: string;
}

const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** "1 h" ... "12 h", "1 day" ... "7 days". */
export function sinceText(seconds: number, t: TFunction): string {
  return seconds < 86_400
    ? t('devices.choice.since.hours', { count: seconds / 3600 })
    : t('devices.choice.since.days', { count: seconds / 86_400 });
}

/**
 * The devices of a block query or a reference-date query, chosen with checkboxes from a paged
 * table of the SMS and LX-IoT devices the actor may use for it. The quick selections choose
 * exactly their devices (all, not reported since ..., this page, none); the text filter narrows
 * the table only. The choice stays across pages and filters.
 */
export function DeviceChoice({
  permission,
  value,
  onChange,
  notReportedChoices,
  onDevicesShown,
  error,
  labelledBy,
}: DeviceChoiceProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [term, setTerm] = useState('');
  const searchTerm = useDebouncedValue(term.trim(), DEVICE_SEARCH_DEBOUNCE_MS);
  const [pageIndex, setPageIndex] = useState(0);
  const [shownTerm, setShownTerm] = useState(searchTerm);
  if (shownTerm !== searchTerm) {
    setShownTerm(searchTerm);
    setPageIndex(0);
  }
  const [since, setSince] = useState<number | ''>('');
  const [picking, setPicking] = useState(false);
  const [pickFailed, setPickFailed] = useState<unknown>(null);
  const chosen = new Set(value);

  const filter = { type: QUERYABLE_TYPES, permission, searchTerm: searchTerm || undefined };
  const list = useQuery({
    queryKey: ['devices', 'choice', filter, pageIndex],
    queryFn: ({ signal }) =>
      fetchPage<ChoosableDevice>(
        '/v2/devices',
        { ...filter, sort: 'id:asc', page: pageIndex + 1, perPage: PER_PAGE },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
  const shown = list.data?.items;
  useEffect(() => {
    if (shown) onDevicesShown?.(shown);
  }, [shown, onDevicesShown]);
  const rows = shown ?? [];
  const total = list.data?.total ?? 0;
  const pageIds = rows.map((device) => device.id);
  const chosenOnPage = pageIds.filter((id) => chosen.has(id)).length;
  const partlyChosen = chosenOnPage > 0 && chosenOnPage < pageIds.length;

  const choose = (ids: Iterable<number>) => onChange(sorted(ids));
  const toggle = (ids: number[], on: boolean) =>
    choose(on ? [...value, ...ids] : value.filter((id) => !ids.includes(id)));
  const pick = (notReportedSince?: number) => {
    setPicking(true);
    setPickFailed(null);
    fetchChoosableIds(permission, notReportedSince).then(
      (ids) => {
        choose(ids);
        setPicking(false);
      },
      (failure: unknown) => {
        setPickFailed(failure);
        setPicking(false);
      },
    );
  };

  return (
    <Stack spacing={1.5} data-testid="device-choice">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          size="small"
          type="search"
          label={t('devices.list.filter')}
          placeholder={t('devices.list.filterHint')}
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          sx={{ flex: '1 1 220px', maxWidth: { sm: 320 } }}
        />
        {notReportedChoices && (
          <TextField
            select
            size="small"
            label={t('devices.choice.notReportedSince')}
            value={since}
            disabled={picking}
            onChange={(event) => {
              const seconds = Number(event.target.value);
              setSince(seconds);
              pick(seconds);
            }}
            sx={{ flex: '0 1 220px', minWidth: 180 }}
          >
            {notReportedChoices.map((seconds) => (
              <MenuItem key={seconds} value={seconds}>
                {sinceText(seconds, t)}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button
            size="small"
            disabled={picking}
            onClick={() => {
              setSince('');
              pick();
            }}
          >
            {t('devices.choice.all')}
          </Button>
          <Button
            size="small"
            disabled={picking || !pageIds.length}
            onClick={() => {
              setSince('');
              choose(pageIds);
            }}
          >
            {t('devices.choice.thisPage')}
          </Button>
          <Button
            size="small"
            disabled={picking || !value.length}
            onClick={() => {
              setSince('');
              choose([]);
            }}
          >
            {t('devices.choice.none')}
          </Button>
        </Stack>
      </Stack>
      <Typography variant="body2" fontWeight={500} data-testid="device-choice-count" aria-live="polite">
        {t('devices.choice.chosen', { count: value.length })}
      </Typography>
      {!!pickFailed && (
        <Typography variant="body2" color="error">
          {errorText(pickFailed, t)}
        </Typography>
      )}
      {error && (
        <Typography variant="body2" color="error" data-testid="device-choice-error">
          {error}
        </Typography>
      )}
      <Box sx={{ height: 4 }}>{(list.isFetching || picking) && <LinearProgress />}</Box>
      {list.isError && !list.data ? (
        <Typography color="error">{errorText(list.error, t)}</Typography>
      ) : list.data && total === 0 ? (
        <Typography color="text.secondary" data-testid="device-choice-empty">
          {t(searchTerm ? 'devices.list.noResults' : 'devices.choice.empty')}
        </Typography>
      ) : (
        <>
          <TableContainer>
            <Table size="small" sx={cardsOnPhone} aria-labelledby={labelledBy}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      checked={pageIds.length > 0 && chosenOnPage === pageIds.length}
                      indeterminate={partlyChosen}
                      // MUI says "mixed" in ARIA only; the box's own state says it too, so that
                      // both tell a screen reader the same.
                      inputRef={(input: HTMLInputElement | null) => {
                        if (input) input.indeterminate = partlyChosen;
                      }}
                      disabled={!pageIds.length}
                      onChange={(event) => toggle(pageIds, event.target.checked)}
                      slotProps={{ input: { 'aria-label': t('devices.choice.togglePage') } }}
                    />
                  </TableCell>
                  <TableCell>{t('devices.list.columns.id')}</TableCell>
                  <TableCell>{t('devices.list.columns.name')}</TableCell>
                  <TableCell>{t('devices.list.columns.username')}</TableCell>
                  <TableCell>{t('devices.list.columns.city')}</TableCell>
                  <TableCell>{t('devices.list.columns.lastReportedAt')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((device) => (
                  <TableRow key={device.id} hover data-testid={`choice-${device.id}`}>
                    <TableCell padding="checkbox" data-label={t('devices.choice.choose')} sx={CHECKBOX_CELL}>
                      <Checkbox
                        size="small"
                        checked={chosen.has(device.id)}
                        onChange={(event) => toggle([device.id], event.target.checked)}
                        slotProps={{
                          input: {
                            'aria-label': t('devices.choice.chooseDevice', {
                              id: device.id,
                              name: device.name,
                            }),
                          },
                        }}
                      />
                    </TableCell>
                    <TableCell data-label={t('devices.list.columns.id')}>{device.id}</TableCell>
                    <TableCell data-label={t('devices.list.columns.name')}>{device.name}</TableCell>
                    <TableCell data-label={t('devices.list.columns.username')}>
                      {device.user.username}
                    </TableCell>
                    <TableCell data-label={t('devices.list.columns.city')}>{device.address.city}</TableCell>
                    <TableCell data-label={t('devices.list.columns.lastReportedAt')}>
                      {device.lastReportedAt
                        ? formatDateTime(device.lastReportedAt, locale)
                        : t('devices.choice.neverReported')}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={total}
            page={Math.min(pageIndex, Math.max(0, Math.ceil(total / PER_PAGE) - 1))}
            rowsPerPage={PER_PAGE}
            rowsPerPageOptions={[]}
            onPageChange={(_event, next) => setPageIndex(next)}
            showFirstButton
            showLastButton
            labelDisplayedRows={({ from, to, count }) => t('devices.list.displayedRows', { from, to, count })}
            getItemAriaLabel={(type) => t(`devices.list.${type}Page`)}
            sx={{
              [`& .${tablePaginationClasses.toolbar}`]: {
                px: 0,
                flexWrap: 'wrap',
                justifyContent: 'flex-end',
              },
              [`& .${tablePaginationClasses.actions}`]: { ml: 1 },
            }}
          />
        </>
      )}
    </Stack>
  );
}
