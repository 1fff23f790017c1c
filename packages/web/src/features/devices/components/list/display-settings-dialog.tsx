import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { DEVICE_LIST_COLUMNS, DEVICE_LIST_PAGE_SIZES } from '@tankportal/shared/schemas/config';
import { DEVICE_SORT_KEYS } from '@tankportal/shared/schemas/devices';
import type { Role } from '@tankportal/shared/roles';
import { listSettingsTarget, useSaveListSettings } from '../../api/list-settings.ts';
import {
  SENSOR_TOGGLES,
  type DeviceSortKey,
  type ListDisplaySettings,
  type ListPageSize,
} from '../../lib/list-settings.ts';

interface DisplaySettingsDialogProps {
  role: Role;
  settings: ListDisplaySettings;
  onSaved: (settings: ListDisplaySettings) => void;
}

/**
 * /devices/config: the list's display settings. Admins and above save the white-label's default,
 * users below admin their own; a demo account sees them read-only.
 */
export function DisplaySettingsDialog({ role, settings, onSaved }: DisplaySettingsDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const target = listSettingsTarget(role);
  const readOnly = target === null;
  const [draft, setDraft] = useState(settings);
  const save = useSaveListSettings(target ?? 'user');
  const close = () => void navigate('/devices');
  const change = (part: Partial<ListDisplaySettings>) => setDraft((current) => ({ ...current, ...part }));
  const noColumn = draft.columns.length === 0;

  const submit = () =>
    save.mutate(draft, {
      onSuccess: () => {
        enqueueSnackbar(t('devices.config.saved'), { variant: 'success' });
        onSaved(draft);
        close();
      },
    });

  const toggleColumn = (column: (typeof DEVICE_LIST_COLUMNS)[number], on: boolean) =>
    change({
      columns: DEVICE_LIST_COLUMNS.filter((c) => (c === column ? on : draft.columns.includes(c))),
    });

  return (
    <Dialog open onClose={close} fullWidth maxWidth="md" aria-labelledby="list-config-title">
      <DialogTitle id="list-config-title">{t('devices.config.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="info">{t(`devices.config.scope.${target ?? 'readOnly'}`)}</Alert>
          <FormControl component="fieldset" error={noColumn} disabled={readOnly}>
            <FormLabel component="legend">{t('devices.config.columns')}</FormLabel>
            <FormGroup row>
              {DEVICE_LIST_COLUMNS.map((column) => (
                <FormControlLabel
                  key={column}
                  sx={{ width: 180 }}
                  control={
                    <Checkbox
                      checked={draft.columns.includes(column)}
                      onChange={(event) => toggleColumn(column, event.target.checked)}
                    />
                  }
                  label={t(`devices.list.columns.${column}`)}
                />
              ))}
            </FormGroup>
            {noColumn && <FormHelperText>{t('devices.config.atLeastOneColumn')}</FormHelperText>}
          </FormControl>
          <FormControl component="fieldset" disabled={readOnly}>
            <FormLabel component="legend">{t('devices.config.order')}</FormLabel>
            <Stack
              direction="row"
              spacing={2}
              useFlexGap
              sx={{ flexWrap: 'wrap', alignItems: 'center', pt: 1 }}
            >
              <TextField
                select
                size="small"
                label={t('devices.config.sortBy')}
                value={draft.sortBy}
                disabled={readOnly}
                onChange={(event) => change({ sortBy: event.target.value as DeviceSortKey })}
                sx={{ minWidth: 180 }}
              >
                {DEVICE_SORT_KEYS.map((key) => (
                  <MenuItem key={key} value={key}>
                    {t(`devices.list.columns.${key}`)}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={draft.sortDesc}
                    onChange={(event) => change({ sortDesc: event.target.checked })}
                  />
                }
                label={t('devices.config.sortDesc')}
              />
              <TextField
                select
                size="small"
                label={t('devices.config.perPage')}
                value={draft.perPage}
                disabled={readOnly}
                onChange={(event) => change({ perPage: Number(event.target.value) as ListPageSize })}
                sx={{ minWidth: 140 }}
              >
                {DEVICE_LIST_PAGE_SIZES.map((size) => (
                  <MenuItem key={size} value={size}>
                    {size}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={draft.groupByUser}
                    onChange={(event) => change({ groupByUser: event.target.checked })}
                  />
                }
                label={t('devices.config.groupByUser')}
              />
            </Stack>
          </FormControl>
          <FormControl component="fieldset" disabled={readOnly}>
            <FormLabel component="legend">{t('devices.config.sensors')}</FormLabel>
            <FormGroup row>
              {SENSOR_TOGGLES.map((toggle) => (
                <FormControlLabel
                  key={toggle}
                  sx={{ width: 180 }}
                  control={
                    <Checkbox
                      checked={draft.sensors[toggle]}
                      onChange={(event) =>
                        change({ sensors: { ...draft.sensors, [toggle]: event.target.checked } })
                      }
                    />
                  }
                  label={t(`devices.config.sensorToggles.${toggle}`)}
                />
              ))}
            </FormGroup>
          </FormControl>
        </Stack>
      </DialogContent>
      <DialogActions>
        {readOnly ? (
          <Button onClick={close}>{t('common.close')}</Button>
        ) : (
          <>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button variant="contained" onClick={submit} disabled={save.isPending || noColumn}>
              {t('common.save')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
