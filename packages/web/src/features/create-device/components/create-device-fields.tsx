import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { IOT_VERSIONS } from '@tankportal/shared/schemas/device-create';
import { CountryPicker } from '../../../components/pickers/country-picker.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { fieldErrorText, sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import {
  useCreateDevice,
  useSmsGateways,
  useUnassignedDevices,
  type CreatedDeviceView,
  type UnassignedKind,
} from '../api/create-device.ts';
import {
  CREATE_DEVICE_DEFAULTS,
  createDeviceCheck,
  DEVICE_KINDS,
  identFields,
  kindGatewayType,
  kindType,
  offersSourceChoice,
  takesUnassigned,
  type CreateDeviceFormValues,
  visibleFields,
  type DeviceKind,
} from '../lib/create-device-form.ts';

type FieldName = FieldPath<CreateDeviceFormValues>;

const ADDRESS_FIELDS = [
  { name: 'address.street', size: 8, max: 128 },
  { name: 'address.streetNumber', size: 4, max: 12 },
  { name: 'address.postalCode', size: 4, max: 8 },
  { name: 'address.city', size: 8, max: 64 },
] as const;

/** The first step: type, ident, gateways, name and address; on success the created device. */
export function CreateDeviceForm({
  onCreated,
  onCancel,
}: {
  onCreated: (created: CreatedDeviceView) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const gateways = useSmsGateways();
  const check = createDeviceCheck(gateways.length);
  const form = useForm<CreateDeviceFormValues>({
    defaultValues: CREATE_DEVICE_DEFAULTS,
    resolver: sharedSchemaResolver(check, t),
  });
  const { control, register, formState, getFieldState, setValue, handleSubmit, setError } = form;
  const [kind, source] = useWatch({ control, name: ['kind', 'source'] });
  const shown = identFields({ kind, source });
  const unassignedKind: UnassignedKind | null = takesUnassigned(kind, source)
    ? (kindType(kind) as UnassignedKind)
    : null;
  const unassigned = useUnassignedDevices(unassignedKind);
  const providerGateways = gateways.filter((gateway) => gateway.provider === kindGatewayType(kind));
  const create = useCreateDevice();
  const onSaveError = useSaveErrorHandler(setError);

  const errorOf = (name: FieldName) => getFieldState(name, formState).error?.message;
  const textField = (
    name: FieldName,
    max: number,
    extra: { required?: boolean; helperText?: string } = {},
  ) => (
    <TextField
      fullWidth
      label={t(`device-create.fields.${name}`)}
      required={extra.required}
      slotProps={{ htmlInput: { maxLength: max } }}
      error={!!errorOf(name)}
      // The format hint stays under the error: the error says what is wrong, the hint how to fix it.
      helperText={
        errorOf(name) && extra.helperText ? (
          <>
            {errorOf(name)}
            <br />
            {extra.helperText}
          </>
        ) : (
          (errorOf(name) ?? extra.helperText)
        )
      }
      {...register(name)}
    />
  );

  const changeKind = (next: DeviceKind) => {
    setValue('kind', next);
    setValue('unassignedDeviceId', '');
    // A gateway type with one gateway: that one, nothing to choose.
    const own = gateways.filter((gateway) => gateway.provider === kindGatewayType(next));
    setValue('inboundGatewayId', own.length === 1 ? own[0].id : '');
    setValue('outboundGatewayId', own.length === 1 ? own[0].id : '');
    form.clearErrors();
  };

  const submit = handleSubmit(() => {
    const checked = check.safeParse(form.getValues());
    if (!checked.success) return;
    create.mutate(checked.data, {
      onSuccess: (answer) => {
        enqueueSnackbar(t('device-create.responses.created'), { variant: 'success' });
        onCreated(answer);
      },
      onError: (error) => {
        onSaveError(error);
        // A field error on something the form does not show (a net device's ident code taken
        // meanwhile) still needs saying: above the form.
        const visible = visibleFields({ kind, source }, gateways.length);
        const hidden = (error instanceof ApiError ? (error.body?.fieldErrors ?? []) : []).filter(
          (fieldError) => !visible.has(fieldError.path),
        );
        if (hidden.length)
          setError('root.server', {
            message: hidden.map((fieldError) => fieldErrorText(t, fieldError)).join(' '),
          });
      },
    });
  });

  const gatewaySelect = (name: 'inboundGatewayId' | 'outboundGatewayId') => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          required
          label={t(`device-create.fields.${name}`)}
          name={field.name}
          value={field.value}
          onChange={field.onChange}
          inputRef={field.ref}
          error={!!errorOf(name)}
          helperText={errorOf(name)}
        >
          {providerGateways.map((gateway) => (
            <MenuItem key={gateway.id} value={gateway.id}>
              {gateway.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <form noValidate onSubmit={submit}>
      <DialogContent>
        {formState.errors.root?.server && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {formState.errors.root.server.message}
          </Alert>
        )}
        <Grid container spacing={2} sx={{ pt: 1 }}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              select
              fullWidth
              required
              label={t('device-create.fields.kind')}
              value={kind}
              onChange={(event) => changeKind(event.target.value as DeviceKind)}
            >
              {DEVICE_KINDS.map((each) => (
                <MenuItem key={each} value={each}>
                  {t(`device-create.kinds.${each}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          {shown.iotVersion && (
            <Grid size={{ xs: 12, sm: 6 }}>
              <Controller
                control={control}
                name="iotVersion"
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t('device-create.fields.iotVersion')}
                    value={field.value}
                    onChange={field.onChange}
                  >
                    {IOT_VERSIONS.map((version) => (
                      <MenuItem key={version} value={version}>
                        {t(`device-create.iotVersions.${version}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
          )}
          {offersSourceChoice(kind) && (
            <Grid size={12}>
              <Controller
                control={control}
                name="source"
                render={({ field }) => (
                  <RadioGroup
                    row
                    value={field.value}
                    onChange={(event) => {
                      field.onChange(event.target.value);
                      form.clearErrors();
                    }}
                    aria-label={t('device-create.fields.source')}
                  >
                    {(['new', 'unassigned'] as const).map((value) => (
                      <FormControlLabel
                        key={value}
                        value={value}
                        control={<Radio />}
                        label={t(`device-create.sources.${value}`)}
                      />
                    ))}
                  </RadioGroup>
                )}
              />
            </Grid>
          )}
          {shown.cellNumber && (
            <Grid size={{ xs: 12, sm: 6 }}>
              {textField('cellNumber', 32, {
                required: true,
                helperText: t('device-create.hints.cellNumber'),
              })}
            </Grid>
          )}
          {shown.iccid && <Grid size={{ xs: 12, sm: 6 }}>{textField('iccid', 32, { required: true })}</Grid>}
          {shown.thingName && (
            <Grid size={{ xs: 12, sm: 6 }}>{textField('thingName', 128, { required: true })}</Grid>
          )}
          {shown.unassignedDeviceId && (
            <Grid size={12}>
              <Controller
                control={control}
                name="unassignedDeviceId"
                render={({ field }) => {
                  const options = unassigned.data ?? [];
                  return (
                    <TextField
                      select
                      fullWidth
                      required
                      label={t(`device-create.unassigned.${kindType(kind)}`)}
                      name={field.name}
                      value={field.value}
                      onChange={field.onChange}
                      inputRef={field.ref}
                      error={!!errorOf('unassignedDeviceId')}
                      helperText={
                        errorOf('unassignedDeviceId') ??
                        (unassigned.isSuccess && !options.length
                          ? t('device-create.unassigned.noOptions')
                          : undefined)
                      }
                    >
                      {options.length ? (
                        options.map((device) => (
                          <MenuItem key={device.id} value={device.id}>
                            {t('device-create.unassigned.option', {
                              ident: device.ident,
                              id: device.id,
                              lastReportedAt: formatDateTime(device.lastReportedAt, locale),
                            })}
                          </MenuItem>
                        ))
                      ) : (
                        <MenuItem disabled value="">
                          {unassigned.isPending
                            ? t('common.loading')
                            : t('device-create.unassigned.noOptions')}
                        </MenuItem>
                      )}
                    </TextField>
                  );
                }}
              />
            </Grid>
          )}
          {shown.gateways && gateways.length > 1 && (
            <>
              <Grid size={{ xs: 12, sm: 6 }}>{gatewaySelect('inboundGatewayId')}</Grid>
              <Grid size={{ xs: 12, sm: 6 }}>{gatewaySelect('outboundGatewayId')}</Grid>
            </>
          )}
          <Grid size={12}>
            <Typography variant="subtitle2" sx={{ mt: 1 }}>
              {t('device-create.baseData')}
            </Typography>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{textField('name', 64, { required: true })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{textField('project', 128)}</Grid>
          {ADDRESS_FIELDS.map(({ name, size, max }) => (
            <Grid key={name} size={{ xs: 12, sm: size }}>
              {textField(name, max)}
            </Grid>
          ))}
          <Grid size={{ xs: 12, sm: 6 }}>
            <Controller
              control={control}
              name="address.countryCode"
              render={({ field }) => (
                <CountryPicker
                  value={field.value || null}
                  onChange={(code) => field.onChange(code ?? '')}
                  inputRef={field.ref}
                  required
                  error={!!errorOf('address.countryCode')}
                  helperText={errorOf('address.countryCode')}
                />
              )}
            />
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {t('device-create.submit')}
        </Button>
      </DialogActions>
    </form>
  );
}
