import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { CountryPicker } from '../pickers/country-picker.tsx';

const ADDRESS_FIELDS = ['street', 'streetNumber', 'postalCode', 'city'] as const;

/** The form part these fields fill: `address.street` … `address.countryCode`. */
interface AddressForm {
  address: Record<(typeof ADDRESS_FIELDS)[number], string | null> & { countryCode: string | null };
}

/**
 * Street, number, postal code, city and country of the surrounding form (react-hook-form's
 * FormProvider): a device's address and a user's alike.
 */
export function AddressFields({ countryRequired = false }: { countryRequired?: boolean }) {
  const { t } = useTranslation();
  const { register, control, formState } = useFormContext<AddressForm>();
  const errors = formState.errors.address;
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {ADDRESS_FIELDS.map((field) => (
          <TextField
            key={field}
            label={t(`device-metadata.baseData.${field}`)}
            error={!!errors?.[field]}
            helperText={errors?.[field]?.message}
            sx={{ flex: field === 'street' || field === 'city' ? '2 1 14rem' : '1 1 7rem' }}
            {...register(`address.${field}`)}
          />
        ))}
      </Stack>
      <Controller
        control={control}
        name="address.countryCode"
        render={({ field, fieldState }) => (
          <CountryPicker
            value={field.value}
            onChange={field.onChange}
            inputRef={field.ref}
            label={t('device-metadata.baseData.country')}
            required={countryRequired}
            error={!!fieldState.error}
            helperText={fieldState.error?.message}
          />
        )}
      />
    </>
  );
}
