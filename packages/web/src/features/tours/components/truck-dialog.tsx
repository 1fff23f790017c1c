import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { lookupQuery } from '../../../lib/lookups.ts';
import { useDepots } from '../api/depots.ts';
import { useSaveTruck } from '../api/trucks.ts';
import type { TruckBody, TruckView } from '../api/types.ts';
import { numberOrNull, numberText, textOrNull } from '../../../lib/number-input.ts';

interface TruckFormValues {
  name: string;
  plate: string;
  depotId: string;
  compartments: { contentType: string; capacity: string }[];
}

/** The select's value for "any content" (the API's null). */
const ANY = '';

interface ContentType {
  id: string;
  name: { de: string; en: string };
}

/** /tours/trucks/new and /tours/trucks/{id}: name, plate, home depot and compartments. */
export function TruckDialog({ truck, onClose }: { truck: TruckView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveTruck(truck?.id ?? null);
  const depots = useDepots();
  const contentTypes = (useQuery(lookupQuery('contentTypes')).data ?? []) as ContentType[];
  const { register, control, handleSubmit, setError, formState } = useForm<TruckFormValues>({
    defaultValues: {
      name: truck?.name ?? '',
      plate: truck?.plate ?? '',
      depotId: truck?.depotId === null || truck?.depotId === undefined ? '' : String(truck.depotId),
      compartments: truck?.compartments.map((compartment) => ({
        contentType: compartment.contentType ?? ANY,
        capacity: numberText(compartment.capacity, locale),
      })) ?? [{ contentType: ANY, capacity: '' }],
    },
  });
  const compartments = useFieldArray({ control, name: 'compartments' });
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (values: TruckFormValues) => {
    const body: TruckBody = {
      name: values.name.trim(),
      plate: textOrNull(values.plate),
      depotId: values.depotId ? Number(values.depotId) : null,
      compartments: values.compartments.map((compartment) => ({
        contentType: compartment.contentType || null,
        capacity: numberOrNull(compartment.capacity, locale) as number,
      })),
    };
    let refused = false;
    if (!body.name) {
      setError('name', { type: 'required', message: t('validation.required') });
      refused = true;
    }
    body.compartments.forEach((compartment, index) => {
      if (compartment.capacity === null || Number.isNaN(compartment.capacity) || compartment.capacity <= 0) {
        const empty = compartment.capacity === null;
        setError(`compartments.${index}.capacity`, {
          type: empty ? 'required' : 'invalid',
          message: t(empty ? 'validation.required' : 'tours.trucks.form.capacityInvalid'),
        });
        refused = true;
      }
    });
    if (refused) return;
    save.mutate(body, {
      onSuccess: (saved) => {
        enqueueSnackbar(t('tours.trucks.saved', { name: saved.name }), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  };
  const errors = formState.errors;
  const compartmentError = errors.compartments?.root?.message ?? errors.compartments?.message;
  return (
    <FormDialog
      title={t(truck ? 'tours.trucks.editTitle' : 'tours.trucks.newTitle')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
      testId="truck"
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        <Grid size={{ xs: 12, sm: 7 }}>
          <TextField
            fullWidth
            required
            autoFocus
            label={t('tours.trucks.form.name')}
            error={!!errors.name}
            helperText={errors.name?.message ?? ' '}
            slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
            {...register('name')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 5 }}>
          <TextField
            fullWidth
            label={t('tours.trucks.form.plate')}
            error={!!errors.plate}
            helperText={errors.plate?.message ?? ' '}
            slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 20 } }}
            {...register('plate')}
          />
        </Grid>
        <Grid size={12}>
          <Controller
            control={control}
            name="depotId"
            render={({ field }) => (
              <TextField
                select
                fullWidth
                label={t('tours.trucks.form.depot')}
                error={!!errors.depotId}
                helperText={errors.depotId?.message ?? ' '}
                {...field}
              >
                <MenuItem value="">{t('tours.trucks.form.noDepot')}</MenuItem>
                {(depots.data ?? []).map((depot) => (
                  <MenuItem key={depot.id} value={String(depot.id)}>
                    {depot.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
      </Grid>
      <Typography variant="subtitle1" component="h3" sx={{ mt: 1 }}>
        {t('tours.trucks.form.compartments')}
      </Typography>
      {compartmentError && (
        <Typography color="error" variant="body2">
          {compartmentError}
        </Typography>
      )}
      <Stack spacing={1} sx={{ mt: 1 }}>
        {compartments.fields.map((field, index) => {
          const capacityError = errors.compartments?.[index]?.capacity?.message;
          const contentError = errors.compartments?.[index]?.contentType?.message;
          return (
            <Stack
              key={field.id}
              direction="row"
              spacing={1}
              alignItems="flex-start"
              data-testid={`compartment-${index}`}
            >
              <Controller
                control={control}
                name={`compartments.${index}.contentType`}
                render={({ field: select }) => (
                  <TextField
                    select
                    label={t('tours.trucks.form.content', { number: index + 1 })}
                    error={!!contentError}
                    helperText={contentError ?? ' '}
                    sx={{ flex: 3, minWidth: 0 }}
                    {...select}
                  >
                    <MenuItem value={ANY}>{t('tours.trucks.anyContent')}</MenuItem>
                    {contentTypes.map((type) => (
                      <MenuItem key={type.id} value={type.id}>
                        {type.name[locale]}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <TextField
                label={t('tours.trucks.form.capacity', { number: index + 1 })}
                required
                error={!!capacityError}
                helperText={capacityError ?? ' '}
                sx={{ flex: 2, minWidth: 0 }}
                slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off', maxLength: 12 } }}
                {...register(`compartments.${index}.capacity`)}
              />
              <IconButton
                aria-label={t('tours.trucks.form.removeCompartment', { number: index + 1 })}
                onClick={() => compartments.remove(index)}
                disabled={compartments.fields.length === 1}
                sx={{ mt: 1 }}
              >
                <DeleteIcon />
              </IconButton>
            </Stack>
          );
        })}
      </Stack>
      <Button
        startIcon={<AddIcon />}
        onClick={() => compartments.append({ contentType: ANY, capacity: '' })}
        sx={{ mt: 1 }}
      >
        {t('tours.trucks.form.addCompartment')}
      </Button>
    </FormDialog>
  );
}
