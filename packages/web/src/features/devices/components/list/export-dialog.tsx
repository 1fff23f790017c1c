import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import {
  DATA_FLOW_OUTPUTS,
  dataFlowPeriods,
  INTERPOLATION_DATES,
  INTERPOLATION_MODES,
  type DataFlowOutput,
  type InterpolationDate,
  type InterpolationMode,
} from '@tankportal/shared/schemas/export';
import { errorKind, errorText } from '../../../../lib/error-texts.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import { lookupQuery } from '../../../../lib/lookups.ts';
import {
  downloadDataFlowExport,
  downloadListExport,
  LIST_EXPORT_FORMATS,
  type ListExportFormat,
} from '../../api/list-export.ts';
import type { DeviceListQueryState } from '../../lib/list-query.ts';

/**
 * Starts a download once. Instead of closing the dialog a second after the click, it
 * keeps it open with the button "preparing…" until the file is there (a slow file otherwise left
 * the user with no sign of it), then closes it. A refusal is a toast and the
 * dialog stays, to try again.
 */
function useExportStart() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [started, setStarted] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const start = (download: () => Promise<void>) => {
    setStarted(true);
    download().then(
      () => {
        if (mounted.current) void navigate('/devices');
      },
      (error: unknown) => {
        // A network failure or refusal says so; anything else keeps the export's own words.
        const kind = errorKind(error);
        enqueueSnackbar(
          kind === 'network' || kind === 'refused' || kind === 'unavailable'
            ? errorText(error, t)
            : t('devices.export.failed'),
          { variant: 'error' },
        );
        if (mounted.current) setStarted(false);
      },
    );
  };
  return { started, start };
}

function FormatChoice({
  value,
  onChange,
}: {
  value: ListExportFormat;
  onChange: (format: ListExportFormat) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormControl>
      <FormLabel id="export-format">{t('devices.export.format')}</FormLabel>
      <RadioGroup
        row
        aria-labelledby="export-format"
        value={value}
        onChange={(event) => onChange(event.target.value as ListExportFormat)}
      >
        {LIST_EXPORT_FORMATS.map((format) => (
          <FormControlLabel
            key={format}
            value={format}
            control={<Radio />}
            label={t(`devices.export.formats.${format}`)}
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}

interface TabProps {
  started: boolean;
  onStart: (download: () => Promise<void>) => void;
  actions: (submit: ReactNode) => ReactNode;
}

function ListExportTab({ query, started, onStart, actions }: TabProps & { query: DeviceListQueryState }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [format, setFormat] = useState<ListExportFormat>('xlsx');
  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('devices.export.listHint')}</DialogContentText>
        <FormatChoice value={format} onChange={setFormat} />
      </DialogContent>
      {actions(
        <Button
          variant="contained"
          loading={started}
          loadingPosition="start"
          onClick={() => onStart(() => downloadListExport(query, format, locale))}
        >
          {t(started ? 'devices.export.preparing' : 'devices.export.submit')}
        </Button>,
      )}
    </>
  );
}

interface ContentType {
  id: string;
  name: { de: string; en: string };
}

function DataFlowExportTab({ started, onStart, actions }: TabProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const contentTypes = (useQuery(lookupQuery('contentTypes')).data ?? []) as ContentType[];
  const [periods] = useState(() => dataFlowPeriods());
  const [period, setPeriod] = useState(periods[0]);
  const [chosenTypes, setChosenTypes] = useState<string[]>([]);
  const [outputs, setOutputs] = useState<DataFlowOutput[]>([...DATA_FLOW_OUTPUTS]);
  const [mode, setMode] = useState<InterpolationMode>('interpolate');
  const [at, setAt] = useState<InterpolationDate>('month_end');
  const [format, setFormat] = useState<ListExportFormat>('xlsx');
  const names = new Map(contentTypes.map((type) => [type.id, type.name[locale]]));
  const noOutput = outputs.length === 0;

  const submit = () =>
    onStart(() =>
      downloadDataFlowExport({ period, contentTypes: chosenTypes, outputs, mode, at, format, locale }),
    );

  return (
    <>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{t('devices.export.dataFlow.hint')}</DialogContentText>
          <TextField
            select
            size="small"
            label={t('devices.export.dataFlow.period')}
            value={period}
            onChange={(event) => setPeriod(event.target.value)}
          >
            {periods.map((value) => (
              <MenuItem key={value} value={value}>
                {value === 'last13month' ? t('devices.export.dataFlow.last13month') : value}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('devices.export.dataFlow.contentTypes')}
            value={chosenTypes}
            onChange={(event) => setChosenTypes(event.target.value as unknown as string[])}
            slotProps={{
              select: {
                multiple: true,
                displayEmpty: true,
                renderValue: (selected) => {
                  const ids = selected as string[];
                  return ids.length
                    ? ids.map((id) => names.get(id) ?? id).join(', ')
                    : t('devices.export.dataFlow.allContentTypes');
                },
              },
              inputLabel: { shrink: true },
            }}
          >
            {contentTypes.map((type) => (
              <MenuItem key={type.id} value={type.id}>
                <Checkbox size="small" checked={chosenTypes.includes(type.id)} sx={{ py: 0 }} />
                {type.name[locale]}
              </MenuItem>
            ))}
          </TextField>
          <FormControl component="fieldset" error={noOutput}>
            <FormLabel component="legend">{t('devices.export.dataFlow.outputs')}</FormLabel>
            <FormGroup row>
              {DATA_FLOW_OUTPUTS.map((output) => (
                <FormControlLabel
                  key={output}
                  control={
                    <Checkbox
                      checked={outputs.includes(output)}
                      onChange={(event) =>
                        setOutputs(
                          DATA_FLOW_OUTPUTS.filter((o) =>
                            o === output ? event.target.checked : outputs.includes(o),
                          ),
                        )
                      }
                    />
                  }
                  label={t(`devices.export.dataFlow.outputNames.${output}`)}
                />
              ))}
            </FormGroup>
            {noOutput && <FormHelperText>{t('validation.required')}</FormHelperText>}
          </FormControl>
          <Stack direction="row" spacing={2}>
            <TextField
              select
              size="small"
              fullWidth
              label={t('devices.export.dataFlow.mode')}
              value={mode}
              onChange={(event) => setMode(event.target.value as InterpolationMode)}
            >
              {INTERPOLATION_MODES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`devices.export.dataFlow.modes.${value}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              fullWidth
              label={t('devices.export.dataFlow.at')}
              value={at}
              onChange={(event) => setAt(event.target.value as InterpolationDate)}
            >
              {INTERPOLATION_DATES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`devices.export.dataFlow.dates.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <FormatChoice value={format} onChange={setFormat} />
        </Stack>
      </DialogContent>
      {actions(
        <Button
          variant="contained"
          disabled={noOutput}
          loading={started}
          loadingPosition="start"
          onClick={submit}
        >
          {t(started ? 'devices.export.preparing' : 'devices.export.submit')}
        </Button>,
      )}
    </>
  );
}

/**
 * /devices/export (tabs list and dataFlow): the device list as the actor sees it,
 * and the monthly data flow of the level sensors (probe_data_flow;
 * offered to accounts that can hold the EXPORT permission).
 */
export function ExportDialog({
  query,
  withDataFlow,
}: {
  query: DeviceListQueryState;
  withDataFlow: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<'list' | 'dataFlow'>('list');
  const { started, start } = useExportStart();
  const close = () => void navigate('/devices');
  const actions = (submit: ReactNode) => (
    <DialogActions>
      <Button onClick={close}>{t('common.cancel')}</Button>
      {submit}
    </DialogActions>
  );
  return (
    <Dialog open onClose={close} fullWidth maxWidth="sm" aria-labelledby="export-title">
      <DialogTitle id="export-title">{t('devices.export.title')}</DialogTitle>
      {withDataFlow && (
        <Tabs value={tab} onChange={(_event, next: 'list' | 'dataFlow') => setTab(next)} sx={{ px: 3 }}>
          <Tab value="list" label={t('devices.export.tabs.list')} />
          <Tab value="dataFlow" label={t('devices.export.tabs.dataFlow')} />
        </Tabs>
      )}
      {tab === 'list' ? (
        <ListExportTab query={query} started={started} onStart={start} actions={actions} />
      ) : (
        <DataFlowExportTab started={started} onStart={start} actions={actions} />
      )}
    </Dialog>
  );
}
