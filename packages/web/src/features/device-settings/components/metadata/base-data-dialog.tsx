import { useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  DEFAULT_COUNTRY_CODE,
  metadataBody,
  type MetadataBody,
} from '@tankportal/shared/schemas/device-metadata';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { AddressFields } from '../../../../components/forms/address-fields.tsx';
import { UserPicker, type PickedUser } from '../../../../components/pickers/user-picker.tsx';
import { useSaveErrorHandler } from '../../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useSaveMetadata } from '../../api/metadata.ts';

interface BaseDataDialogProps {
  device: DeviceDetailView;
  /** Admins holding DELETE on the device may hand it to another user. */
  canChangeUser: boolean;
  onSaved: () => void;
  onClose: () => void;
}

/** /settings/metadata/edit ('base data'): name, project, address and, for some, the owner. */
export function BaseDataDialog({ device, canChangeUser, onSaved, onClose }: BaseDataDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveMetadata(device.id);
  const [owner, setOwner] = useState<PickedUser | null>(device.user);
  const form = useForm<MetadataBody>({
    defaultValues: {
      name: device.name,
      project: device.project ?? '',
      address: {
        street: device.address.street ?? '',
        streetNumber: device.address.streetNumber ?? '',
        postalCode: device.address.postalCode ?? '',
        city: device.address.city ?? '',
        countryCode: device.address.countryCode || DEFAULT_COUNTRY_CODE,
      },
      userId: device.user.id,
    },
    resolver: sharedSchemaResolver(metadataBody, t),
  });
  const { register, control, handleSubmit, setError, formState } = form;
  const onSaveError = useSaveErrorHandler(setError);
  const { errors } = formState;

  const submit = (values: MetadataBody) =>
    save.mutate(
      // The owner goes along only when it changes: the server refuses it to everyone else.
      { ...values, userId: canChangeUser && values.userId !== device.user.id ? values.userId : undefined },
      {
        onSuccess: () => {
          enqueueSnackbar(t('device-metadata.responses.updated'), { variant: 'success' });
          onSaved();
        },
        onError: onSaveError,
      },
    );

  return (
    <FormProvider {...form}>
      <FormDialog
        title={t('device-metadata.baseData.title')}
        maxWidth="sm"
        onClose={onClose}
        onSubmit={handleSubmit(submit)}
        saveDisabled={save.isPending}
        dirty={formState.isDirty}
      >
        <Stack spacing={2} sx={{ pt: 1 }}>
          {canChangeUser && (
            <Controller
              control={control}
              name="userId"
              render={({ field, fieldState }) => (
                <UserPicker
                  value={owner}
                  onChange={(user) => {
                    setOwner(user);
                    field.onChange(user?.id ?? null);
                  }}
                  inputRef={field.ref}
                  label={t('device-metadata.baseData.user')}
                  required
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
          )}
          <TextField
            label={t('device-metadata.baseData.name')}
            required
            autoFocus
            error={!!errors.name}
            helperText={errors.name?.message}
            {...register('name')}
          />
          <TextField
            label={t('device-metadata.baseData.project')}
            error={!!errors.project}
            helperText={errors.project?.message}
            {...register('project')}
          />
          <AddressFields countryRequired />
        </Stack>
      </FormDialog>
    </FormProvider>
  );
}
