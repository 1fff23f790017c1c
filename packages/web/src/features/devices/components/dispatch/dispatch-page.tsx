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
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import { hasRole } from '@tankportal/shared/roles';
import { unitSymbol } from '@tankportal/shared/units';
import { Loading } from '../../../../components/loading.tsx';
import { Page } from '../../../../components/page.tsx';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import { devicePath } from '../../../../lib/device-path.ts';
import { errorText } from '../../../../lib/error-texts.ts';
import { formatDate, formatNumber } from '../../../../lib/format.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import { useCurrentUser } from '../../../../lib/session.ts';
import {
  DISPATCH_EXPORT_FORMATS,
  downloadDispatchExport,
  useDispatch,
  type DispatchExportFormat,
} from '../../api/dispatch.ts';
import {
  addressLines,
  DISPATCH_HORIZONS,
  groupByPostalCode,
  horizonOf,
  type DispatchGroup,
  type DispatchRowView,
} from '../../lib/dispatch.ts';
import { useContentTypeName } from '../../lib/content-type-name.ts';
import { unitFractionDigits, type UnitTotal } from '../../lib/sensor-totals.ts';

const HORIZON_PARAM = 'within_days';

const COLUMNS = [
  'device',
  'name',
  'address',
  'sensor',
  'level',
  'fillLimit',
  'orderQuantity',
  'emptyAt',
] as const;

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
 * /devices/dispatch: the tanks forecast to run empty within 7, 14 or 30 days, grouped by
 * postal code for planning routes, each with the quantity that fills it to its fill limit; as xlsx
 * or csv too.
 */
export default function DispatchPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const withinDays = horizonOf(search.get(HORIZON_PARAM));
  const dispatch = useDispatch(withinDays);
  const data = dispatch.data;
  const rows = data?.rows ?? [];
  // Demo accounts export nothing (as everywhere): the server refuses them the file.
  const { data: user } = useCurrentUser();
  const exports = hasRole(user?.role ?? 'ROLE_DEMO', 'ROLE_APP_USER');

  const choose = (days: number | null) => {
    if (days === null) return;
    const next = new URLSearchParams(search);
    next.set(HORIZON_PARAM, String(days));
    setSearch(next);
  };

  return (
    <Page title={t('dispatch.title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('dispatch.hint')}
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={withinDays}
          onChange={(_event, days: number | null) => choose(days)}
          aria-label={t('dispatch.horizon')}
        >
          {DISPATCH_HORIZONS.map((days) => (
            <ToggleButton key={days} value={days}>
              {t('dispatch.days', { count: days })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {data && (
          <Typography data-testid="dispatch-count" color="text.secondary">
            {t('dispatch.count', { count: rows.length })}
          </Typography>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {exports && <ExportButtons withinDays={withinDays} />}
        <Button component={RouterLink} to="/devices" startIcon={<ArrowBackIcon />}>
          {t('dispatch.back')}
        </Button>
      </Stack>
      <Box sx={{ height: 4 }}>{dispatch.isFetching && data && <LinearProgress />}</Box>
      {data ? (
        rows.length ? (
          <DispatchTable groups={groupByPostalCode(rows)} />
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
function ExportButtons({ withinDays }: { withinDays: number }) {
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
      await downloadDispatchExport(withinDays, format, locale);
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

function DispatchTable({ groups }: { groups: DispatchGroup[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const contentTypeName = useContentTypeName();
  return (
    <Table size="small" sx={cardsOnPhone} aria-label={t('dispatch.tableLabel')} data-testid="dispatch-table">
      <TableHead>
        <TableRow>
          {COLUMNS.map((column) => (
            <TableCell key={column} align={isNumeric(column) ? 'right' : 'left'}>
              {t(`dispatch.columns.${column}`)}
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
              <GroupHeader group={group} locale={locale} t={t} />
            </TableCell>
          </TableRow>
          {group.rows.map((row) => (
            <DispatchRowLine
              key={row.sensorId}
              row={row}
              locale={locale}
              t={t}
              contentTypeName={contentTypeName}
            />
          ))}
        </TableBody>
      ))}
    </Table>
  );
}

const isNumeric = (column: (typeof COLUMNS)[number]) =>
  column === 'level' || column === 'fillLimit' || column === 'orderQuantity';

function GroupHeader({ group, locale, t }: { group: DispatchGroup; locale: Locale; t: TFunction }) {
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
      </Typography>
    </Stack>
  );
}

function DispatchRowLine({
  row,
  locale,
  t,
  contentTypeName,
}: {
  row: DispatchRowView;
  locale: Locale;
  t: TFunction;
  contentTypeName: (id: string) => string;
}) {
  const label = (column: (typeof COLUMNS)[number]) => t(`dispatch.columns.${column}`);
  const none = '–';
  const address = addressLines(row.address);
  return (
    <TableRow data-testid="dispatch-row" data-device-id={row.deviceId}>
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
      <TableCell data-label={label('emptyAt')}>
        <Box>
          <div data-testid="dispatch-empty-at">{formatDate(row.emptyAt, locale)}</div>
          {row.reorderAt && (
            <Typography variant="caption" color="text.secondary">
              {t('dispatch.reorderAt', { date: formatDate(row.reorderAt, locale) })}
            </Typography>
          )}
        </Box>
      </TableCell>
    </TableRow>
  );
}
