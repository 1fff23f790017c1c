import { Fragment, memo, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Box from '@mui/material/Box';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { alpha, type Theme } from '@mui/material/styles';
import type { Locale } from '@tankportal/shared/constants';
import type { DeviceListColumn } from '@tankportal/shared/schemas/config';
import type { SensorTotals } from '@tankportal/shared/schemas/devices';
import { formatDate, formatDateTime, formatNumber } from '../../../../lib/format.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import { unitSymbol } from '@tankportal/shared/units';
import type { DeviceListItem } from '../../../../lib/api/devices.ts';
import type { ListDisplaySettings, SensorToggle } from '../../lib/list-settings.ts';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import { doubtsText, firstEmpty } from '../../../../lib/forecast-text.ts';
import { healthLabels } from '../../lib/health.ts';
import { unitFractionDigits } from '../../../../lib/sensor-totals.ts';
import { SensorList } from './sensor-list.tsx';

const devicePath = (id: number) => `/devices/${id}`;
const mapPath = (id: number) => `/devices/map?highlight=${id}`;
const DASH = '–';

/** The text of a plain column (everything but the sensors). */
function cellText(
  column: Exclude<DeviceListColumn, 'sensors' | 'id' | 'emptyAt'>,
  device: DeviceListItem,
  locale: Locale,
  t: TFunction,
) {
  switch (column) {
    case 'username':
      return device.user.username;
    case 'name':
      return device.name;
    case 'project':
      return device.project ?? '';
    case 'countryCode':
      return device.address.countryCode;
    case 'postalCode':
      return device.address.postalCode ?? '';
    case 'city':
      return device.address.city ?? '';
    case 'street':
      return [device.address.street, device.address.streetNumber].filter(Boolean).join(' ');
    case 'lastReportedAt':
      return device.lastReportedAt ? formatDateTime(device.lastReportedAt, locale) : DASH;
    case 'simCredit':
      return device.simCreditQty === null
        ? DASH
        : `${formatNumber(device.simCreditQty, locale, 2)} ${device.simCreditCurrency ?? ''}`.trim();
    case 'status':
      return (
        t(`devices.list.status.${device.status}`) + (device.active ? '' : ` · ${t('devices.list.inactive')}`)
      );
  }
}

/**
 * The forecast's empty date of the level sensor that runs empty first (the tank that needs the
 * delivery first), with that sensor's name, and a warning while its readings are in doubt.
 */
function EmptyAtCell({ device, locale, t }: Pick<RowProps, 'device' | 'locale' | 't'>) {
  const first = firstEmpty(device.sensors);
  if (!first) return DASH;
  const doubts = doubtsText(first.forecast, locale);
  return (
    <>
      <span data-testid="empty-at">{formatDate(first.forecast.emptyAt, locale)}</span>
      <span className="empty-at-sensor" data-testid="empty-at-sensor">
        {first.name}
      </span>
      {doubts && (
        <span className="empty-at-doubt" data-testid="empty-at-doubt">
          <WarningAmberIcon fontSize="inherit" aria-hidden />
          {t('devices.list.forecastUnreliable', { doubts })}
        </span>
      )}
    </>
  );
}

// The place icon's path (Material "Place"), drawn as plain SVG: one per row.
const PLACE_PATH =
  'M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7m0 9.5c-1.38 0-2.5-1.12-2.5-2.5s1.12-2.5 2.5-2.5 2.5 1.12 2.5 2.5-1.12 2.5-2.5 2.5';

interface RowProps {
  device: DeviceListItem;
  columns: DeviceListColumn[];
  sensors: Record<SensorToggle, boolean>;
  locale: Locale;
  t: TFunction;
}

/** A warning sign on a device with doubtful readings; its tooltip names the doubts. */
function HealthMark({ device, locale, t }: Pick<RowProps, 'device' | 'locale' | 't'>) {
  const labels = healthLabels(device.health, locale).join(', ');
  return (
    <Tooltip title={labels}>
      <span
        className="health-mark"
        role="img"
        tabIndex={0}
        aria-label={t('devices.list.health.mark', { labels })}
        data-testid="health-mark"
      >
        <WarningAmberIcon fontSize="small" />
      </span>
    </Tooltip>
  );
}

/** One device: plain cells, error colour when not ok, greyed when inactive; the row opens the device. */
const DeviceRow = memo(function DeviceRow({ device, columns, sensors, locale, t }: RowProps) {
  const classes = [device.status !== 'ok' && 'row-error', !device.active && 'row-inactive'].filter(Boolean);
  return (
    <tr
      className={classes.join(' ')}
      data-href={devicePath(device.id)}
      data-testid="device-row"
      data-device-id={device.id}
    >
      <td className="cell-location">
        {device.location && (
          <a
            href={mapPath(device.id)}
            target="_blank"
            rel="noopener"
            title={t('devices.list.showOnMap')}
            aria-label={t('devices.list.showOnMap')}
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden>
              <path d={PLACE_PATH} fill="currentColor" />
            </svg>
          </a>
        )}
        {device.health.length > 0 && <HealthMark device={device} locale={locale} t={t} />}
      </td>
      {columns.map((column) => (
        <td
          key={column}
          className={`cell-${column}`}
          // On a phone each cell is a line of the card, named by its column; the name is the card's
          // title and the fill levels come right below it, both without a label.
          data-label={
            column === 'name' || column === 'sensors' ? undefined : t(`devices.list.columns.${column}`)
          }
        >
          {column === 'id' ? (
            <a
              href={devicePath(device.id)}
              className="device-link"
              aria-label={t('devices.list.openDevice', { id: device.id })}
            >
              {device.id}
            </a>
          ) : column === 'sensors' ? (
            <SensorList sensors={device.sensors} show={sensors} locale={locale} t={t} />
          ) : column === 'emptyAt' ? (
            <EmptyAtCell device={device} locale={locale} t={t} />
          ) : (
            cellText(column, device, locale, t)
          )}
        </td>
      ))}
    </tr>
  );
});

export interface SortState {
  sortBy: string;
  sortDesc: boolean;
}

interface DeviceTableProps {
  devices: DeviceListItem[];
  /** The footer totals of the whole filtered list (GET /v2/devices/totals), not the page's; none yet while they load. */
  totals: SensorTotals | undefined;
  settings: ListDisplaySettings;
  grouped: boolean;
  sort: SortState;
  onSort: (sort: SortState) => void;
}

const tableStyles = (theme: Theme) => ({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: '0.875rem',
  '& th, & td': {
    textAlign: 'left',
    verticalAlign: 'top',
    padding: '6px 8px',
    borderBottom: `1px solid ${theme.palette.divider}`,
  },
  // Headers and the last report's date and time wrap between words, and a word too long for its
  // cell breaks, so that the table fits its width from 1280 px up instead of scrolling sideways.
  '& thead th': { fontWeight: 600, verticalAlign: 'bottom' },
  '& tbody td': { overflowWrap: 'break-word' },
  '& tbody tr[data-href]': { cursor: 'pointer' },
  '& tbody tr[data-href]:hover': { backgroundColor: theme.palette.action.hover },
  '& tr.row-error': {
    color: theme.palette.error.dark,
    backgroundColor: alpha(theme.palette.error.main, 0.08),
  },
  '& tr.row-error:hover': { backgroundColor: alpha(theme.palette.error.main, 0.14) },
  '& tr.row-inactive': { color: theme.palette.text.secondary },
  '& tr.row-inactive .sensor-bar div': { filter: 'grayscale(1)', opacity: 0.6 },
  '& tr.group-row th': { backgroundColor: theme.palette.grey[100], fontWeight: 600 },
  '& a': { color: 'inherit' },
  '& .device-link': { fontWeight: 600 },
  // A clear ring for the keyboard on the sort buttons and the row's links.
  '& .MuiTableSortLabel-root.Mui-focusVisible, & a:focus-visible': {
    outline: `3px solid ${theme.palette.primary.main}`,
    outlineOffset: '2px',
    borderRadius: '2px',
  },
  '& .cell-location': { width: '24px', padding: '6px 0 6px 4px', color: theme.palette.primary.main },
  '& .cell-location a': { display: 'inline-flex', color: theme.palette.primary.main },
  '& .health-mark': { display: 'inline-flex', color: theme.palette.warning.dark, borderRadius: '2px' },
  '& .health-mark:focus-visible': {
    outline: `3px solid ${theme.palette.primary.main}`,
    outlineOffset: '2px',
  },
  '& .cell-simCredit': { whiteSpace: 'nowrap' },
  '& .empty-at-sensor': { display: 'block', color: theme.palette.text.secondary, fontSize: '0.75rem' },
  '& .empty-at-doubt': {
    display: 'flex',
    alignItems: 'center',
    gap: '2px',
    color: theme.palette.warning.dark,
    fontSize: '0.75rem',
    fontWeight: 600,
  },
  // A quarter of the row per sensor was too narrow; two side by side would leave the other
  // eleven columns too little room, so the column takes 30 % of the row and two sensors share a
  // line in equal halves (decision 030). Every bar is then as wide as any other at a given width,
  // and its fill is a share of it: 78 %, 81 % and 100 % stay apart.
  '& th.cell-sensors': { width: '30%' },
  '& .sensors': {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    columnGap: '12px',
    rowGap: '4px',
  },
  '& .sensor': { minWidth: 0 },
  '& .sensor-name': {
    borderLeft: '3px solid',
    paddingLeft: '4px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .sensor-bar': {
    height: '6px',
    margin: '3px 0',
    borderRadius: '3px',
    backgroundColor: theme.palette.grey[200],
    overflow: 'hidden',
  },
  '& .sensor-bar div': { height: '100%' },
  '& .sensor-value': { fontVariantNumeric: 'tabular-nums' },
  '& .sensor-failed .sensor-value': { color: theme.palette.error.main, fontWeight: 600 },
  '& tfoot td': { fontWeight: 600, borderBottom: 'none' },
});

/**
 * On a phone (below `sm`) every device is a card (cardsOnPhone): its name first, the fill levels
 * right below it, then the other cells with their column's name.
 */
const phoneCards = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& tbody tr': { display: 'flex', flexDirection: 'column' },
    '& tbody td': { order: 3 },
    '& tbody td.cell-name': { order: 1, fontWeight: 600, fontSize: '1rem' },
    '& tbody td.cell-sensors': { order: 2, display: 'block' },
    '& tbody td.cell-location': { width: 'auto', padding: '4px 12px' },
    '& tbody td.cell-location:empty': { display: 'none' },
    '& tr.group-row th': { display: 'block', borderRadius: 1, mb: 1 },
    '& tfoot, & tfoot tr, & tfoot td': { display: 'block' },
  },
});

function groupLabel(device: DeviceListItem): string {
  return device.user.name && device.user.name !== device.user.username
    ? `${device.user.username} – ${device.user.name}`
    : device.user.username;
}

/**
 * The device table. One click handler for the whole body: a click on a row opens the device, a
 * link inside a row (device id, map icon) keeps its own behaviour, modified clicks open new tabs.
 */
export function DeviceTable({ devices, totals, settings, grouped, sort, onSort }: DeviceTableProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const columns = settings.columns;
  const span = columns.length + 1;

  const openRow = (event: MouseEvent<HTMLTableSectionElement>) => {
    const target = event.target as HTMLElement;
    const link = target.closest('a');
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link) {
      if (link.target === '_blank') return;
      event.preventDefault();
      void navigate(link.getAttribute('href')!);
      return;
    }
    const href = target.closest('tr')?.dataset.href;
    if (href) void navigate(href);
  };

  const header = (column: DeviceListColumn): ReactNode => {
    const label = t(`devices.list.columns.${column}`);
    if (column === 'sensors') return label;
    const active = sort.sortBy === column;
    return (
      <TableSortLabel
        active={active}
        direction={active && sort.sortDesc ? 'desc' : 'asc'}
        onClick={() => onSort({ sortBy: column, sortDesc: active ? !sort.sortDesc : false })}
      >
        {label}
      </TableSortLabel>
    );
  };

  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Box
        component="table"
        sx={[tableStyles, ...(Array.isArray(cardsOnPhone) ? cardsOnPhone : [cardsOnPhone]), phoneCards]}
        data-testid="device-table"
      >
        <thead>
          <tr>
            <th className="cell-location" />
            {columns.map((column) => (
              <th
                key={column}
                className={`cell-${column}`}
                aria-sort={sort.sortBy === column ? (sort.sortDesc ? 'descending' : 'ascending') : undefined}
              >
                {header(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody onClick={openRow}>
          {devices.length === 0 && (
            <tr>
              <td colSpan={span}>{t('devices.list.noResults')}</td>
            </tr>
          )}
          {devices.map((device, index) => {
            // The server orders a grouped list by user first: a new user starts a new group.
            const newGroup = grouped && (index === 0 || devices[index - 1].user.id !== device.user.id);
            return (
              <Fragment key={device.id}>
                {newGroup && (
                  <tr className="group-row" data-testid="group-row">
                    <th colSpan={span} scope="rowgroup">
                      {groupLabel(device)}
                    </th>
                  </tr>
                )}
                <DeviceRow
                  device={device}
                  columns={columns}
                  sensors={settings.sensors}
                  locale={locale}
                  t={t}
                />
              </Fragment>
            );
          })}
        </tbody>
        {devices.length > 0 && totals && (
          <tfoot>
            <tr>
              <td colSpan={span} data-testid="list-totals">
                {t('devices.list.totals')}:{' '}
                {totals.length
                  ? totals
                      .map(
                        ({ unit, total }) =>
                          `${formatNumber(total, locale, unitFractionDigits(unit))} ${unitSymbol(unit)}`,
                      )
                      .join(' · ')
                  : t('devices.list.noTotals')}
              </td>
            </tr>
          </tfoot>
        )}
      </Box>
    </Box>
  );
}
