import { Controller, FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { UseMutationResult } from '@tanstack/react-query';
import {
  BASEDATA_LIMITS,
  userBasedataBody,
  type UserBasedataBody,
  type UserBasedataInput,
} from '@tankportal/shared/schemas/users';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { AddressFields } from '../../../../components/forms/address-fields.tsx';
import { useSaveErrorHandler } from '../../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import type { UserView } from '../../api/user.ts';

/** The contact's text parts, in the order of their lengths' table. */
const TEXT_FIELDS = Object.keys(BASEDATA_LIMITS) as (keyof typeof BASEDATA_LIMITS)[];
const INPUT_MODES: Partial<Record<(typeof TEXT_FIELDS)[number], string>> = {
  email: 'email',
  website: 'url',
  cellNumber: 'tel',
  phoneNumber: 'tel',
  faxNumber: 'tel',
};

/** Empty text for an absent value: the fields are controlled inputs. */
const blanks = <T extends Record<string, string | null>>(values: T) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value ?? ''])) as {
    [K in keyof T]: string;
  };

/** /users/{id}/account/basedata: the contact and address parts. */
export function BasedataDialog({
  user,
  save,
  onClose,
}: {
  user: UserView;
  save: UseMutationResult<UserView, Error, UserBasedataBody>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { legalType, form: salutation, ...texts } = user.contact;
  const form = useForm<UserBasedataInput>({
    defaultValues: {
      contact: {
        ...blanks(texts),
        legalType,
        form: salutation,
      } as UserBasedataInput['contact'],
      address: blanks(user.address),
    },
    resolver: sharedSchemaResolver(userBasedataBody, t),
  });
  const { register, control, formState } = form;
  const errors = formState.errors.contact;
  const onSaveError = useSaveErrorHandler(form.setError);
  const submit = (values: UserBasedataInput) =>
    save.mutate(values as UserBasedataBody, {
      onSuccess: () => {
        enqueueSnackbar(t('users.responses.basedataUpdated'), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  const choice = (name: 'legalType' | 'form', options: Record<string, string>) => (
    <Controller
      control={control}
      name={`contact.${name}`}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={t(`users.basedata.${name}`)}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
          sx={{ flex: '1 1 10rem' }}
          {...field}
          value={field.value ?? ''}
          onChange={(event) => field.onChange(event.target.value || null)}
        >
          <MenuItem value="">{t('users.none')}</MenuItem>
          {Object.entries(options).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
  return (
    <FormProvider {...form}>
      <FormDialog
        title={t('users.basedata.title')}
        maxWidth="md"
        onClose={onClose}
        onSubmit={form.handleSubmit(submit)}
        saveDisabled={save.isPending}
        dirty={formState.isDirty}
        testId="user-basedata"
      >
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {choice('legalType', {
              private: t('users.basedata.legalTypes.private'),
              company: t('users.basedata.legalTypes.company'),
            })}
            {choice('form', { mr: t('users.basedata.forms.mr'), mrs: t('users.basedata.forms.mrs') })}
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {TEXT_FIELDS.map((field) => (
              <TextField
                key={field}
                label={t(`users.basedata.${field}`)}
                error={!!errors?.[field]}
                helperText={errors?.[field]?.message}
                sx={{ flex: '1 1 14rem' }}
                slotProps={{ htmlInput: { inputMode: INPUT_MODES[field] } }}
                {...register(`contact.${field}`)}
              />
            ))}
          </Stack>
          <AddressFields />
        </Stack>
      </FormDialog>
    </FormProvider>
  );
}
