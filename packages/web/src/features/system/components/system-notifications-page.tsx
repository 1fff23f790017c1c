import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import { NOTIFICATION_SEVERITIES } from '@tankportal/shared/constants';
import {
  SYSTEM_NOTIFICATION_MAX_LENGTH,
  systemNotificationBody,
  type SystemNotificationBody,
} from '@tankportal/shared/schemas/system-notifications';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog.tsx';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import {
  useSystemNotificationMutations,
  useSystemNotifications,
  type SystemNotification,
} from '../api/system-notifications.ts';
import { SystemNotificationList } from './system-notification-list.tsx';
import { SystemTabs } from './system-tabs.tsx';

const BASE = '/system/notifications';

/**
 * /system/notifications (master): the notices every signed-in user sees in the top bar; create
 * (/new, severity info by default) and revoke.
 */
export default function SystemNotificationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const notifications = useSystemNotifications();
  const { revoke } = useSystemNotificationMutations();
  const [revoking, setRevoking] = useState<SystemNotification | null>(null);
  return (
    <Page title={t('system.title')}>
      <SystemTabs />
      <Stack direction="row" justifyContent="flex-end" sx={{ mb: 1 }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate(`${BASE}/new`)}>
          {t('notifications.create')}
        </Button>
      </Stack>
      <QueryContent query={notifications}>
        {(list) => <SystemNotificationList notifications={list} onRevoke={setRevoking} />}
      </QueryContent>
      {revoking && (
        <ConfirmDialog
          title={t('notifications.revokeTitle')}
          text={t('notifications.revokeText')}
          confirmLabel={t('notifications.revoke')}
          danger
          pending={revoke.isPending}
          onClose={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                enqueueSnackbar(t('notifications.responses.revoked'), { variant: 'success' });
                setRevoking(null);
              },
            })
          }
        />
      )}
      <Routes>
        <Route index element={null} />
        <Route path="new" element={<CreateDialog onClose={() => void navigate(BASE)} />} />
      </Routes>
    </Page>
  );
}

function CreateDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { create } = useSystemNotificationMutations();
  const { register, control, handleSubmit, setError, formState } = useForm<SystemNotificationBody>({
    defaultValues: { message: '', severity: 'info' },
    resolver: sharedSchemaResolver(systemNotificationBody, t),
  });
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (body: SystemNotificationBody) =>
    create.mutate(body, {
      onSuccess: () => {
        enqueueSnackbar(t('notifications.responses.created'), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  return (
    <FormDialog
      title={t('notifications.create')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={create.isPending}
      dirty={formState.isDirty}
      testId="system-notification"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t('notifications.message')}
          required
          multiline
          minRows={4}
          autoFocus
          slotProps={{ htmlInput: { maxLength: SYSTEM_NOTIFICATION_MAX_LENGTH } }}
          error={!!formState.errors.message}
          helperText={formState.errors.message?.message}
          {...register('message')}
        />
        <Controller
          control={control}
          name="severity"
          render={({ field }) => (
            <TextField select label={t('notifications.severityLabel')} {...field}>
              {NOTIFICATION_SEVERITIES.map((severity) => (
                <MenuItem key={severity} value={severity}>
                  {t(`notifications.severity.${severity}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Stack>
    </FormDialog>
  );
}
