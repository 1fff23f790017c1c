import { useState } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import DeleteIcon from '@mui/icons-material/Delete';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useWeatherStations, type WeatherStationView } from '../../../lib/api/weather-stations.ts';
import { useDeleteWeatherStation } from '../api/delete-weather-station.ts';
import { useImportWeatherStation } from '../api/import-weather-station.ts';
import {
  formatDay,
  importFailureText,
  importResultText,
  positionText,
} from '../lib/weather-station-texts.ts';
import { SystemTabs } from './system-tabs.tsx';
import { WeatherStationDialog } from './weather-station-dialog.tsx';

const BASE = '/system/weather-stations';
const COLUMNS = ['name', 'id', 'position', 'days', 'lastDay', 'import'] as const;

/**
 * /system/weather-stations (master): the DWD stations whose daily mean temperatures the
 * forecast of heating tanks uses; add one (/new), import one now, delete one.
 */
export default function WeatherStationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const stations = useWeatherStations();
  const [deleting, setDeleting] = useState<WeatherStationView | null>(null);
  return (
    <Page title={t('system.title')}>
      <SystemTabs />
      <Stack spacing={2}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          justifyContent="space-between"
          alignItems={{ xs: 'stretch', sm: 'flex-start' }}
        >
          <Box data-testid="weather-stations-hint" sx={{ maxWidth: '75ch' }}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('weather.hint')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('weather.idHint')}
            </Typography>
          </Box>
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => void navigate(`${BASE}/new`)}
            sx={{ flexShrink: 0, alignSelf: { xs: 'flex-end', sm: 'flex-start' } }}
          >
            {t('weather.add')}
          </Button>
        </Stack>
        <QueryContent query={stations}>
          {(list) =>
            list.length === 0 ? (
              <Typography color="text.secondary" data-testid="weather-stations-empty">
                {t('weather.empty')}
              </Typography>
            ) : (
              <StationTable stations={list} onDelete={setDeleting} />
            )
          }
        </QueryContent>
      </Stack>
      {deleting && <DeleteDialog station={deleting} onClose={() => setDeleting(null)} />}
      <Routes>
        <Route index element={null} />
        <Route path="new" element={<WeatherStationDialog onClose={() => void navigate(BASE)} />} />
      </Routes>
    </Page>
  );
}

function StationTable({
  stations,
  onDelete,
}: {
  stations: WeatherStationView[];
  onDelete: (station: WeatherStationView) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const label = (column: (typeof COLUMNS)[number] | 'actions') => t(`weather.columns.${column}`);
  return (
    <TableContainer>
      <Table size="small" sx={cardsOnPhone} data-testid="weather-stations-table">
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell
                key={column}
                align={column === 'days' ? 'right' : undefined}
                sx={{ whiteSpace: 'nowrap' }}
              >
                {label(column)}
              </TableCell>
            ))}
            <TableCell align="right">{label('actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {stations.map((station) => (
            <TableRow key={station.id} data-testid={`weather-station-${station.id}`}>
              <TableCell data-label={label('name')} sx={{ overflowWrap: 'anywhere' }}>
                {station.name}
              </TableCell>
              <TableCell data-label={label('id')}>{station.id}</TableCell>
              <TableCell data-label={label('position')} sx={{ whiteSpace: { sm: 'nowrap' } }}>
                {positionText(station.lat, station.lng, t, locale)}
              </TableCell>
              <TableCell data-label={label('days')} align="right">
                {formatNumber(station.days, locale)}
              </TableCell>
              <TableCell data-label={label('lastDay')}>{formatDay(station.lastDay, locale)}</TableCell>
              <TableCell data-label={label('import')} data-testid="weather-station-import-state">
                <Box>
                  <Typography variant="body2">
                    {station.importedAt
                      ? t('weather.importedAt', { time: formatDateTime(station.importedAt, locale) })
                      : t('weather.neverImported')}
                  </Typography>
                  {station.importError && (
                    <Typography variant="body2" color="error">
                      {t('weather.lastImportFailed', { reason: importFailureText(station.importError, t) })}
                    </Typography>
                  )}
                </Box>
              </TableCell>
              <TableCell data-label={label('actions')} align="right">
                <Stack direction="row" spacing={1} justifyContent="flex-end" alignItems="center">
                  <ImportButton station={station} />
                  <Tooltip title={t('weather.delete')}>
                    <IconButton
                      size="small"
                      aria-label={`${t('weather.delete')}: ${station.name}`}
                      onClick={() => onDelete(station)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** "Import now" of one station: a few seconds with a spinner, then the result as a toast. */
function ImportButton({ station }: { station: WeatherStationView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const importNow = useImportWeatherStation();
  return (
    <Button
      size="small"
      variant="outlined"
      disabled={importNow.isPending}
      aria-label={`${importNow.isPending ? t('weather.importing') : t('weather.importNow')}: ${station.name}`}
      startIcon={
        importNow.isPending ? (
          <CircularProgress size={16} color="inherit" aria-label={t('weather.importing')} />
        ) : (
          <CloudDownloadIcon />
        )
      }
      onClick={() =>
        importNow.mutate(station.id, {
          onSuccess: (result) =>
            enqueueSnackbar(`${station.name}: ${importResultText(result, t, locale)}`, {
              // A failed import is tried again by the daily job: a warning, not an error of the portal.
              variant: result.error ? 'warning' : 'success',
            }),
        })
      }
      sx={{ whiteSpace: 'nowrap' }}
    >
      {importNow.isPending ? t('weather.importing') : t('weather.importNow')}
    </Button>
  );
}

function DeleteDialog({ station, onClose }: { station: WeatherStationView; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteWeatherStation();
  return (
    <DeleteConfirmDialog
      title={t('weather.deleteTitle')}
      label={t('weather.delete')}
      text={t('weather.deleteText', { name: station.name, id: station.id, count: station.days })}
      remove={remove}
      target={station.id}
      deletedText={t('weather.deleted')}
      onClose={onClose}
    />
  );
}
