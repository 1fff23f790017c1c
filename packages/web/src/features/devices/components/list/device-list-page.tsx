import { Suspense, useMemo, type ComponentType } from 'react';
import { Link as RouterLink, Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TablePagination, { tablePaginationClasses } from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import MapIcon from '@mui/icons-material/Map';
import AddIcon from '@mui/icons-material/Add';
import TuneIcon from '@mui/icons-material/Tune';
import SyncIcon from '@mui/icons-material/Sync';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { DEVICE_LIST_PAGE_SIZES } from '@tankportal/shared/schemas/config';
import { hasRole, type Role } from '@tankportal/shared/roles';
import { Loading } from '../../../../components/loading.tsx';
import { Page } from '../../../../components/page.tsx';
import { useCurrentUser } from '../../../../lib/session.ts';
import { errorText } from '../../../../lib/error-texts.ts';
import { useDeviceList, useDeviceListTotals } from '../../api/device-list.ts';
import { useListSettings } from '../../api/list-settings.ts';
import { isEmptyWithinDays } from '../../lib/health.ts';
import { shownColumns, type ListDisplaySettings } from '../../lib/list-settings.ts';
import { DeviceTable } from './device-table.tsx';
import { DisplaySettingsDialog } from './display-settings-dialog.tsx';
import { ExportDialog } from './export-dialog.tsx';
import { IntelligenceFilters } from './intelligence-filters.tsx';
import { ListFilter } from './list-filter.tsx';
import { useListQueryState } from './use-list-query-state.ts';

/**
 * The list's dialogs that other features own (the map, create device, block and reference-date
 * queries): app/routes puts them in, lazily loaded; the list opens each at its sub-path.
 */
export interface ListDialogs {
  Map: ComponentType;
  CreateDevice: ComponentType;
  BlockQueries: ComponentType;
  /** `subPath`: what follows /devices/ref-date-queries/ ('' for the list of queries). */
  RefDateQueries: ComponentType<{ subPath: string }>;
}

/** The dialog sub-path of a list URL: `map` for /devices/map, '' for the list itself. */
const dialogPathOf = (pathname: string) => pathname.replace(/^\/devices\/?/, '').replace(/\/$/, '');

/**
 * The list export shows what the list shows, so every role gets it; the data-flow export covers
 * devices with the EXPORT permission, which a demo account never holds.
 */
const offersDataFlowExport = (role: Role) => hasRole(role, 'ROLE_APP_USER');

/** Block and reference-date queries are for users and above. */
const queriesDevices = (role: Role) => hasRole(role, 'ROLE_USER');

/** The sub-path below /devices/ref-date-queries ('' for the list itself), or null for another dialog. */
const refDateSubPathOf = (dialogPath: string) =>
  /^ref-date-queries(\/|$)/.test(dialogPath)
    ? dialogPath.slice('ref-date-queries'.length).replace(/^\//, '')
    : null;

/** Creating a device is for admins and above. */
const createsDevices = (role: Role) => hasRole(role, 'ROLE_ADMIN');

/** At 390 px the rows-per-page choice, the range and the four page buttons do not fit one row:
 *  the page buttons wrap to a second row instead of leaving the window on the right. */
const PAGINATION_WRAPS_ON_PHONES = {
  [`& .${tablePaginationClasses.toolbar}`]: {
    flexWrap: 'wrap',
    justifyContent: 'flex-end',
    px: { xs: 0, sm: 2 },
  },
  [`& .${tablePaginationClasses.spacer}`]: { display: { xs: 'none', sm: 'block' } },
  [`& .${tablePaginationClasses.actions}`]: { ml: { xs: 1, sm: 2.5 } },
} as const;

/** /devices and its dialogs. Waits for the display settings: they pick the start order. */
export default function DeviceListPage({ dialogs }: { dialogs: ListDialogs }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const role = user?.role ?? 'ROLE_DEMO';
  const settings = useListSettings(role);
  if (!settings.data)
    return (
      <Page title={t('devices.title')}>
        <Loading />
      </Page>
    );
  return <DeviceList role={role} settings={settings.data} dialogs={dialogs} />;
}

function DeviceList({
  role,
  settings,
  dialogs,
}: {
  role: Role;
  settings: ListDisplaySettings;
  dialogs: ListDialogs;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const [query, update] = useListQueryState(settings);
  const list = useDeviceList(query);
  const page = list.data;
  // The count and footer totals: once per filter, beside the pages.
  const totalsQuery = useDeviceListTotals(query);
  const totals = totalsQuery.data;
  // Filtered by "empty within", each row shows its empty date and sensor, chosen column or not.
  const emptyWithin = isEmptyWithinDays(query.emptyWithinDays);
  const shown = useMemo(
    () => ({ ...settings, columns: shownColumns(settings.columns, emptyWithin) }),
    [settings, emptyWithin],
  );

  // A stored page beyond the end (devices went away since): show the last page instead.
  if (
    page &&
    totals &&
    !list.isPlaceholderData &&
    !totalsQuery.isPlaceholderData &&
    page.devices.length === 0 &&
    totals.total > 0 &&
    query.page > 1
  )
    update({ page: Math.ceil(totals.total / query.perPage) });

  const applySettings = (saved: ListDisplaySettings) =>
    update({
      sortBy: saved.sortBy,
      sortDesc: saved.sortDesc,
      grouped: saved.groupByUser,
      perPage: saved.perPage,
      page: 1,
    });

  const dialogPath = dialogPathOf(location.pathname);
  const refDateSubPath = refDateSubPathOf(dialogPath);
  let dialog = null;
  if (dialogPath === 'config')
    dialog = <DisplaySettingsDialog role={role} settings={settings} onSaved={applySettings} />;
  else if (dialogPath === 'export')
    dialog = <ExportDialog query={query} withDataFlow={offersDataFlowExport(role)} />;
  else if (dialogPath === 'map')
    dialog = (
      <Suspense fallback={null}>
        <dialogs.Map />
      </Suspense>
    );
  else if (dialogPath === 'new' && createsDevices(role))
    dialog = (
      <Suspense fallback={null}>
        <dialogs.CreateDevice />
      </Suspense>
    );
  else if (dialogPath === 'block-queries' && queriesDevices(role))
    dialog = (
      <Suspense fallback={null}>
        <dialogs.BlockQueries />
      </Suspense>
    );
  else if (refDateSubPath !== null && queriesDevices(role))
    dialog = (
      <Suspense fallback={null}>
        <dialogs.RefDateQueries subPath={refDateSubPath} />
      </Suspense>
    );
  // A dialog this role may not open, or none at all: back to the list.
  else if (dialogPath !== '') dialog = <Navigate to="/devices" replace />;

  return (
    <Page title={t('devices.title')}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
        <ListFilter term={query.searchTerm} onChange={(searchTerm) => update({ searchTerm, page: 1 })} />
        <IntelligenceFilters
          health={query.health}
          emptyWithinDays={query.emptyWithinDays}
          onChange={(change) => update({ ...change, page: 1 })}
        />
        <FormControlLabel
          control={
            <Switch
              checked={query.grouped}
              onChange={(event) => update({ grouped: event.target.checked, page: 1 })}
            />
          }
          label={t('devices.config.groupByUser')}
        />
        {totals && (
          <Typography data-testid="devices-summary" color="text.secondary">
            {t('devices.count', { count: totals.total })}
          </Typography>
        )}
        <Box sx={{ flexGrow: 1 }} />
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          role="toolbar"
          aria-label={t('devices.actions.label')}
          sx={{ flexWrap: 'wrap' }}
        >
          {!!totals?.locationEnabled && (
            <Button component={RouterLink} to="/devices/map" startIcon={<MapIcon />}>
              {t('devices.actions.map')}
            </Button>
          )}
          <Button component={RouterLink} to="/devices/config" startIcon={<TuneIcon />}>
            {t('devices.actions.config')}
          </Button>
          <Button component={RouterLink} to="/devices/export" startIcon={<FileDownloadIcon />}>
            {t('devices.actions.export')}
          </Button>
          <Button component={RouterLink} to="/devices/dispatch" startIcon={<LocalShippingIcon />}>
            {t('devices.actions.dispatch')}
          </Button>
          {queriesDevices(role) && (
            <>
              <Button component={RouterLink} to="/devices/block-queries" startIcon={<SyncIcon />}>
                {t('devices.actions.blockQueries')}
              </Button>
              <Button component={RouterLink} to="/devices/ref-date-queries" startIcon={<EventRepeatIcon />}>
                {t('devices.actions.refDateQueries')}
              </Button>
            </>
          )}
          {createsDevices(role) && (
            <Button component={RouterLink} to="/devices/new" variant="contained" startIcon={<AddIcon />}>
              {t('device-create.action')}
            </Button>
          )}
        </Stack>
      </Stack>
      <Box sx={{ height: 4 }}>{(list.isFetching || totalsQuery.isFetching) && <LinearProgress />}</Box>
      {page ? (
        <>
          <DeviceTable
            devices={page.devices}
            totals={totals?.sensorTotals}
            settings={shown}
            grouped={query.grouped}
            sort={query}
            onSort={(sort) => update({ ...sort, page: 1 })}
          />
          {totals && (
            <TablePagination
              component="div"
              count={totals.total}
              page={Math.max(0, Math.min(query.page - 1, Math.ceil(totals.total / query.perPage) - 1))}
              rowsPerPage={query.perPage}
              rowsPerPageOptions={[...DEVICE_LIST_PAGE_SIZES]}
              onPageChange={(_event, next) => update({ page: next + 1 })}
              onRowsPerPageChange={(event) => update({ perPage: Number(event.target.value), page: 1 })}
              showFirstButton
              showLastButton
              labelRowsPerPage={t('devices.list.rowsPerPage')}
              labelDisplayedRows={({ from, to, count }) =>
                t('devices.list.displayedRows', { from, to, count })
              }
              getItemAriaLabel={(type) => t(`devices.list.${type}Page`)}
              sx={PAGINATION_WRAPS_ON_PHONES}
            />
          )}
        </>
      ) : list.isError ? (
        <Typography color="error">{errorText(list.error, t)}</Typography>
      ) : (
        <Loading />
      )}
      {dialog}
    </Page>
  );
}
