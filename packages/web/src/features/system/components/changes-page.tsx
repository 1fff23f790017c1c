import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { auditActionText, auditEntityText } from '@tankportal/shared/audit-texts';
import type { Locale } from '@tankportal/shared/constants';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '@tankportal/shared/schemas/audit';
import { ChangesTable } from '../../../components/changes/changes-table.tsx';
import { DayRangeFields } from '../../../components/day-range-fields.tsx';
import { Page } from '../../../components/page.tsx';
import { DevicePicker } from '../../../components/pickers/device-picker.tsx';
import { UserPicker, type PickedUser } from '../../../components/pickers/user-picker.tsx';
import { PreviousNextPages } from '../../../components/previous-next-pages.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { deviceQuery, pickedDeviceOf, type PickedDevice } from '../../../lib/api/devices.ts';
import { fetchPickerUser, userKeys } from '../../../lib/api/users.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { downloadAuditEntries, useAuditEntries } from '../api/audit-entries.ts';
import { auditFilterFromSearch, auditFilterSearch, type AuditFilter } from '../lib/audit-filter.ts';
import { SystemTabs } from './system-tabs.tsx';

/** The choices of a select in the order of their words, which is how a reader looks for one. */
const byText = <T extends string>(values: readonly T[], text: (value: T) => string, locale: Locale) =>
  values.map((value) => ({ value, text: text(value) })).sort((a, b) => a.text.localeCompare(b.text, locale));

/**
 * /system/changes (master; the server refuses everyone else): the whole record of changes, newest
 * first, filtered by who, object kind, action, device and days, the filters in the address; paged
 * by previous and next (the record is not counted), and the same selection as an xlsx file.
 */
export default function SystemChangesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const filter = auditFilterFromSearch(search);
  const entries = useAuditEntries(filter);
  const show = (next: AuditFilter) => setSearch(auditFilterSearch(next), { replace: true });
  // Another filter starts at its first page again.
  const change = (next: Partial<AuditFilter>) => show({ ...filter, ...next, page: 1 });
  return (
    <Page title={t('system.title')}>
      <SystemTabs />
      <Stack spacing={2} data-testid="system-changes">
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Typography variant="h6" component="h2">
            {t('system.changes.title')}
          </Typography>
          <ExportButton filter={filter} />
        </Stack>
        <Filters filter={filter} onChange={change} />
        <Box sx={{ height: 4 }}>{entries.isFetching && <LinearProgress />}</Box>
        <QueryContent query={entries}>
          {({ items, hasMore }) =>
            items.length === 0 && filter.page === 1 ? (
              <Typography color="text.secondary" data-testid="changes-empty">
                {t('system.changes.empty')}
              </Typography>
            ) : (
              <>
                <ChangesTable entries={items} objectColumn />
                <PreviousNextPages
                  page={filter.page}
                  hasMore={hasMore}
                  onPageChange={(page) => show({ ...filter, page })}
                />
              </>
            )
          }
        </QueryContent>
      </Stack>
    </Page>
  );
}

/** The xlsx file of the filtered record in the page's language; "preparing…" until it is there. */
function ExportButton({ filter }: { filter: AuditFilter }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const [preparing, setPreparing] = useState(false);
  const start = () => {
    setPreparing(true);
    downloadAuditEntries(filter, locale)
      .catch((error: unknown) => enqueueSnackbar(errorText(error, t), { variant: 'error' }))
      .finally(() => setPreparing(false));
  };
  return (
    <Button
      variant="outlined"
      startIcon={<DownloadIcon />}
      loading={preparing}
      loadingPosition="start"
      onClick={start}
    >
      {preparing ? t('system.changes.exporting') : t('system.changes.export')}
    </Button>
  );
}

/**
 * A picker's value for an id the address names: the option picked, else the one looked up (after
 * a reload), else the number alone (a user or device deleted since, or still loading).
 */
function pickedFor<T extends { id: number }>(
  id: number | undefined,
  picked: T | null,
  looked: T | undefined,
  bare: (id: number) => T,
): T | null {
  if (id === undefined) return null;
  if (picked?.id === id) return picked;
  return looked?.id === id ? looked : bare(id);
}

function Filters({
  filter,
  onChange,
}: {
  filter: AuditFilter;
  onChange: (next: Partial<AuditFilter>) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [pickedUser, setPickedUser] = useState<PickedUser | null>(null);
  const [pickedDevice, setPickedDevice] = useState<PickedDevice | null>(null);
  const { userId, deviceId } = filter;
  const lookedUser = useQuery({
    queryKey: [...userKeys.one(userId ?? 0), 'picker'],
    queryFn: ({ signal }) => fetchPickerUser(userId!, signal),
    enabled: userId !== undefined && pickedUser?.id !== userId,
    retry: false,
  });
  const lookedDevice = useQuery({
    ...deviceQuery(deviceId ?? 0),
    select: pickedDeviceOf,
    enabled: deviceId !== undefined && pickedDevice?.id !== deviceId,
  });
  const select = (
    key: 'entityType' | 'action',
    label: string,
    choices: { value: string; text: string }[],
  ) => (
    <TextField
      select
      size="small"
      label={label}
      value={filter[key] ?? ''}
      onChange={(event) => onChange({ [key]: event.target.value || undefined })}
      // "All" shows as the choice when none is made.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ flex: '1 1 12rem', minWidth: 0 }}
    >
      <MenuItem value="">{t('system.changes.all')}</MenuItem>
      {choices.map(({ value, text }) => (
        <MenuItem key={value} value={value}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
  const field = { flex: '1 1 14rem', minWidth: 0 };
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="changes-filters">
      <Box sx={field}>
        <UserPicker
          label={t('system.changes.who')}
          value={pickedFor(userId, pickedUser, lookedUser.data, (id) => ({
            id,
            username: `#${id}`,
            name: '',
          }))}
          onChange={(user) => {
            setPickedUser(user);
            onChange({ userId: user?.id });
          }}
        />
      </Box>
      {select(
        'entityType',
        t('system.changes.object'),
        byText(AUDIT_ENTITIES, (entity) => auditEntityText(locale, entity), locale),
      )}
      {select(
        'action',
        t('system.changes.action'),
        byText(AUDIT_ACTIONS, (action) => auditActionText(locale, action), locale),
      )}
      <Box sx={field}>
        <DevicePicker
          label={t('system.changes.device')}
          value={pickedFor(deviceId, pickedDevice, lookedDevice.data, (id) => ({
            id,
            name: t('changes.none'),
            city: null,
            username: '',
          }))}
          onChange={(device) => {
            setPickedDevice(device);
            onChange({ deviceId: device?.id });
          }}
        />
      </Box>
      <DayRangeFields from={filter.from} to={filter.to} onChange={onChange} />
    </Stack>
  );
}
