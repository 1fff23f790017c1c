import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import { healthLabel } from '@tankportal/shared/health-texts';
import { hasRole } from '@tankportal/shared/roles';
import { unitSymbol } from '@tankportal/shared/units';
import { Loading } from '../../../components/loading.tsx';
import { Page } from '../../../components/page.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { devicePath } from '../../../lib/device-path.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { formatDate, formatDateTime, formatDay, formatNumber, today } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import {
  DISPATCH_EXPORT_FORMATS,
  downloadDispatchExport,
  useDispatch,
  type DispatchExportFormat,
  type DispatchRequest,
} from '../api/dispatch.ts';
import {
  addressLines,
  deliveryDayOf,
  groupByPostalCode,
  horizonOf,
  type DispatchGroup,
  type DispatchRowView,
} from '../lib/dispatch.ts';
import { DeliveryDayField, HorizonPicker } from './dispatch-controls.tsx';
import { useContentTypeName } from '../../../lib/content-type-name.ts';
import { doubtsText } from '../../../lib/forecast-text.ts';
import { unitFractionDigits, type UnitTotal } from '../../../lib/sensor-totals.ts';

const HORIZON_PARAM = 'within_days';
const DELIVERY_PARAM = 'delivery_on';

const COLUMNS = [
  'device',
  'name',
  'address',
  'sensor',
  'level',
  'fillLimit',
  'orderQuantity',
  'orderQuantityOnDelivery',
  'emptyAt',
] as const;
type DispatchColumn = (typeof COLUMNS)[number];

/** A column's header; the quantity on delivery names its day. */
const columnLabel = (column: DispatchColumn, t: TFunction, deliveryDay: string) =>
  t(`dispatch.columns.${column}`, { date: deliveryDay });

/** A quantity with the unit's usual digits and its symbol. */
const quantityText = (value: number, unit: string, locale: Locale) =>
  `${formatNumber(value, locale, unitFractionDigits(unit))} ${unitSymbol(unit)}`;

const totalsText = (totals: UnitTotal[], locale: Locale) =>
  totals.map(({ unit, total }) => quantityText(total, unit, locale)).join(', ');

/** On a phone the rows are cards (cardsOnPhone); a group's header is a plain heading above its cards
 *  (`&&`: above the table's own card rules). */
const groupHeaderSx: SxProps<Theme> = (theme) => ({
  '&&': { [theme.breakpoints.down('sm')]: { border: 0, mb: 0.5, py: 0 } },
  '&& th': {
    backgroundColor: theme.palette.action.hover,
    [theme.breakpoints.down('sm')]: { display: 'block', border: 0, px: 1.5, py: 1, borderRadius: 1 },
  },
});

/**
 * /devices/dispatch: the tanks forecast to run empty within 7, 14, 30 or any other number of
 * days, grouped by postal code for planning routes, each with the quantity that fills it to its fill
 * limit today and on the planned delivery day, and the doubts about its readings; as xlsx or csv
 * too.
 */
export default function DispatchPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const request: DispatchRequest = {
    withinDays: horizonOf(search.get(HORIZON_PARAM)),
    deliveryOn: deliveryDayOf(search.get(DELIVERY_PARAM), today()),
  };
  const { withinDays } = request;
  const dispatch = useDispatch(request);
  const data = dispatch.data;
  const rows = data?.rows ?? [];
  // Demo accounts export nothing (as everywhere): the server refuses them the file.
  const { data: user } = useCurrentUser();
  const exports = hasRole(user?.role ?? 'ROLE_DEMO', 'ROLE_APP_USER');

  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(search);
    if (value === null) next.delete(name);
    else next.set(name, value);
    setSearch(next);
  };

  return (
    <Page title={t('dispatch.title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('dispatch.hint')}
      </Typography>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap', alignItems: 'flex-start', mb: 1 }}
      >
        <HorizonPicker
          key={withinDays}
          withinDays={withinDays}
          onChange={(days) => setParam(HORIZON_PARAM, String(days))}
        />
        <DeliveryDayField deliveryOn={request.deliveryOn} onChange={(day) => setParam(DELIVERY_PARAM, day)} />
        <Box sx={{ flexGrow: 1 }} />
        {exports && <ExportButtons request={request} />}
        <Button component={RouterLink} to="/devices" startIcon={<ArrowBackIcon />}>
          {t('dispatch.back')}
        </Button>
      </Stack>
      {data && (
        <Typography data-testid="dispatch-count" color="text.secondary">
          {t('dispatch.count', { count: rows.length })}
        </Typography>
      )}
      <Box sx={{ height: 4 }}>{dispatch.isFetching && data && <LinearProgress />}</Box>
      {data ? (
        rows.length ? (
          <DispatchTable groups={groupByPostalCode(rows)} deliveryOn={data.deliveryOn} />
        ) : (
          <Typography data-testid="dispatch-empty" sx={{ py: 3 }}>
            {t('dispatch.empty', { count: withinDays })}
          </Typography>
        )
      ) : dispatch.isError ? (
        <Stack spacing={1} sx={{ py: 3, alignItems: 'flex-start' }}>
          <Typography color="error" data-testid="dispatch-error">
            {errorText(dispatch.error, t)}
          </Typography>
          <Button variant="outlined" onClick={() => void dispatch.refetch()}>
            {t('dispatch.retry')}
          </Button>
        </Stack>
      ) : (
        <Loading />
      )}
    </Page>
  );
}

/** xlsx and csv; the clicked one says "preparing…" (both locked) until the file is there. */
function ExportButtons({ request }: { request: DispatchRequest }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const [preparing, setPreparing] = useState<DispatchExportFormat | null>(null);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const start = async (format: DispatchExportFormat) => {
    setPreparing(format);
    try {
      await downloadDispatchExport(request, format, locale);
    } catch (error) {
      enqueueSnackbar(errorText(error, t), { variant: 'error' });
    } finally {
      if (mounted.current) setPreparing(null);
    }
  };
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap' }}
      role="group"
      aria-label={t('dispatch.export.label')}
    >
      {DISPATCH_EXPORT_FORMATS.map((format) => (
        <Button
          key={format}
          variant="outlined"
          startIcon={<DownloadIcon />}
          loading={preparing === format}
          loadingPosition="start"
          disabled={preparing !== null && preparing !== format}
          onClick={() => void start(format)}
        >
          {preparing === format ? t('dispatch.export.preparing') : t(`dispatch.export.${format}`)}
        </Button>
      ))}
    </Stack>
  );
}

function DispatchTable({ groups, deliveryOn }: { groups: DispatchGroup[]; deliveryOn: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const contentTypeName = useContentTypeName();
  const deliveryDay = formatDay(deliveryOn, locale);
  return (
    <Table size="small" sx={cardsOnPhone} aria-label={t('dispatch.tableLabel')} data-testid="dispatch-table">
      <TableHead>
        <TableRow>
          {COLUMNS.map((column) => (
            <TableCell key={column} align={isNumeric(column) ? 'right' : 'left'}>
              {columnLabel(column, t, deliveryDay)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      {groups.map((group) => (
        <TableBody
          key={group.postalCode ?? ''}
          data-testid="dispatch-group"
          data-postal-code={group.postalCode ?? ''}
        >
          <TableRow sx={groupHeaderSx}>
            <TableCell component="th" scope="rowgroup" colSpan={COLUMNS.length}>
              <GroupHeader group={group} locale={locale} t={t} deliveryDay={deliveryDay} />
            </TableCell>
          </TableRow>
          {group.rows.map((row) => (
            <DispatchRowLine
              key={row.sensorId}
              row={row}
              locale={locale}
              t={t}
              contentTypeName={contentTypeName}
              deliveryDay={deliveryDay}
            />
          ))}
        </TableBody>
      ))}
    </Table>
  );
}

const isNumeric = (column: DispatchColumn) =>
  column === 'level' ||
  column === 'fillLimit' ||
  column === 'orderQuantity' ||
  column === 'orderQuantityOnDelivery';

function GroupHeader({
  group,
  locale,
  t,
  deliveryDay,
}: {
  group: DispatchGroup;
  locale: Locale;
  t: TFunction;
  deliveryDay: string;
}) {
  const place =
    group.postalCode === null
      ? t('dispatch.noPostalCode')
      : [group.postalCode, group.city].filter(Boolean).join(' ');
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'baseline' }}>
      <Typography
        component="span"
        variant="subtitle1"
        sx={{ fontWeight: 600 }}
        data-testid="dispatch-group-place"
      >
        {place}
      </Typography>
      <Typography component="span" variant="body2" color="text.secondary">
        {t('dispatch.groupSummary', { count: group.rows.length })}
        {group.totals.length > 0 &&
          ` · ${t('dispatch.groupTotal', { total: totalsText(group.totals, locale) })}`}
        {group.deliveryTotals.length > 0 &&
          ` · ${t('dispatch.groupDeliveryTotal', { date: deliveryDay, total: totalsText(group.deliveryTotals, locale) })}`}
      </Typography>
    </Stack>
  );
}

/** The open doubts of a row (its sensor's and its device's), each with the time it is open since. */
function HealthLines({ row, locale, t }: { row: DispatchRowView; locale: Locale; t: TFunction }) {
  return row.health.map((issue) => (
    <Typography
      key={`${issue.kind}-${issue.sequence ?? ''}`}
      variant="caption"
      color="warning.dark"
      data-testid="dispatch-health"
      data-kind={issue.kind}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}
    >
      <WarningAmberIcon fontSize="inherit" aria-hidden />
      {t('dispatch.healthSince', {
        label: healthLabel(issue.kind, locale),
        time: formatDateTime(issue.since, locale),
      })}
    </Typography>
  ));
}

function DispatchRowLine({
  row,
  locale,
  t,
  contentTypeName,
  deliveryDay,
}: {
  row: DispatchRowView;
  locale: Locale;
  t: TFunction;
  contentTypeName: (id: string) => string;
  deliveryDay: string;
}) {
  const label = (column: DispatchColumn) => columnLabel(column, t, deliveryDay);
  const unreliable = row.forecastDoubts.length > 0;
  const none = '–';
  const address = addressLines(row.address);
  return (
    <TableRow data-testid="dispatch-row" data-device-id={row.deviceId} data-sensor-id={row.sensorId}>
      <TableCell data-label={label('device')}>
        <Link
          component={RouterLink}
          to={devicePath(row.deviceId)}
          aria-label={t('dispatch.openDevice', { id: row.deviceId })}
        >
          {row.deviceId}
        </Link>
      </TableCell>
      <TableCell data-label={label('name')}>
        <Box>
          <div>{row.deviceName || none}</div>
          <Typography variant="caption" color="text.secondary">
            {row.username}
          </Typography>
        </Box>
      </TableCell>
      <TableCell data-label={label('address')}>
        <Box>{address.length ? address.map((line) => <div key={line}>{line}</div>) : none}</Box>
      </TableCell>
      <TableCell data-label={label('sensor')}>
        <Box>
          <div>{row.sensorName}</div>
          {row.contentType && (
            <Typography variant="caption" color="text.secondary">
              {contentTypeName(row.contentType)}
            </Typography>
          )}
          <HealthLines row={row} locale={locale} t={t} />
        </Box>
      </TableCell>
      <TableCell data-label={label('level')} align="right" sx={{ whiteSpace: 'nowrap' }}>
        {row.level === null ? none : quantityText(row.level, row.unit, locale)}
      </TableCell>
      <TableCell data-label={label('fillLimit')} align="right" sx={{ whiteSpace: 'nowrap' }}>
        {row.fillLimit === null ? none : `${formatNumber(row.fillLimit, locale)} %`}
      </TableCell>
      <TableCell
        data-label={label('orderQuantity')}
        align="right"
        sx={{ whiteSpace: 'nowrap', fontWeight: 700 }}
        data-testid="dispatch-order-quantity"
      >
        {row.orderQuantity === null ? none : quantityText(row.orderQuantity, row.unit, locale)}
      </TableCell>
      <TableCell
        data-label={label('orderQuantityOnDelivery')}
        align="right"
        sx={{ whiteSpace: 'nowrap', fontWeight: 700 }}
        data-testid="dispatch-delivery-quantity"
      >
        {row.orderQuantityOnDelivery === null
          ? none
          : quantityText(row.orderQuantityOnDelivery, row.unit, locale)}
      </TableCell>
      <TableCell data-label={label('emptyAt')}>
        <Box>
          <div data-testid="dispatch-empty-at">{formatDate(row.emptyAt, locale)}</div>
          {unreliable && (
            // The date rests on readings in doubt: said next to it, not left to the reader.
            <Typography
              variant="caption"
              color="warning.dark"
              data-testid="dispatch-forecast-unreliable"
              sx={{ display: 'block', fontWeight: 600 }}
            >
              {t('dispatch.forecastUnreliable', {
                doubts: doubtsText({ doubts: row.forecastDoubts }, locale),
              })}
            </Typography>
          )}
          {row.reorderAt && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {t('dispatch.reorderAt', { date: formatDate(row.reorderAt, locale) })}
            </Typography>
          )}
        </Box>
      </TableCell>
    </TableRow>
  );
}
