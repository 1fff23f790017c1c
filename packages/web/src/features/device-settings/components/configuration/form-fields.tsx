import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { Controller, get, useFormContext, useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { INTERVAL_UNITS } from '@tankportal/shared/schemas/device-configuration';
import { TimeField } from '../../../../components/time-field.tsx';

// Controlled inputs of the configuration form. Every input shows the error of its own path, be it
// the shared schema's (client) or the server's (applyServerFieldErrors, same path).

/**
 * The field paths an input is shown for right now: the error summary tells an error that shows at
 * its input from one that has no input on screen (a hidden field, the sensor list itself) and must
 * be listed instead.
 */
export const ShownFieldsContext = createContext<Set<string> | null>(null);

function useShownField(...names: string[]) {
  const shown = useContext(ShownFieldsContext);
  const key = names.join('\n');
  useEffect(() => {
    if (!shown) return;
    const paths = key.split('\n');
    for (const path of paths) shown.add(path);
    return () => {
      for (const path of paths) shown.delete(path);
    };
  }, [shown, key]);
}

interface FieldProps {
  name: string;
  label: string;
  required?: boolean;
  disabled?: boolean;
}

/** The text shown for an input's value: null and undefined are empty. */
const shown = (value: unknown) => (value === null || value === undefined ? '' : String(value));

export function TextInput({
  name,
  label,
  required,
  disabled,
  type = 'text',
  unit,
  step,
  list,
}: FieldProps & {
  type?: 'text' | 'number' | 'time';
  unit?: string;
  step?: number;
  /** The id of a datalist whose entries the browser offers while typing. */
  list?: string;
}) {
  const { control } = useFormContext();
  useShownField(name);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => {
        const common = {
          label,
          required,
          disabled,
          size: 'small',
          fullWidth: true,
          error: !!fieldState.error,
          helperText: fieldState.error?.message,
        } as const;
        // A time as the portal's language writes it, not as the browser's time input would.
        if (type === 'time') {
          const { ref, ...input } = field;
          return (
            <TimeField
              {...input}
              {...common}
              inputRef={ref}
              value={shown(field.value)}
              slotProps={{ htmlInput: { 'data-testid': `field-${name}` }, inputLabel: { shrink: true } }}
            />
          );
        }
        return (
          <TextField
            {...field}
            {...common}
            value={shown(field.value)}
            type={type}
            slotProps={{
              // The raw text goes to the form's schema, which tells "nothing entered" from a number.
              htmlInput: { step, list, 'data-testid': `field-${name}` },
              input: unit
                ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> }
                : undefined,
            }}
          />
        );
      }}
    />
  );
}

export interface Option {
  value: string | number | null;
  label: ReactNode;
}

/** Option values travel through the DOM as text; null is the empty choice. */
const optionKey = (value: Option['value']) => (value === null ? '' : String(value));

export function SelectInput({
  name,
  label,
  options,
  required,
  disabled,
  onChosen,
}: FieldProps & { options: readonly Option[]; onChosen?: (value: Option['value']) => void }) {
  const { control } = useFormContext();
  useShownField(name);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          value={optionKey((field.value as Option['value'] | undefined) ?? null)}
          onChange={(event) => {
            const chosen = options.find((option) => optionKey(option.value) === event.target.value);
            const value = chosen ? chosen.value : null;
            field.onChange(value);
            onChosen?.(value);
          }}
          label={label}
          required={required}
          disabled={disabled}
          size="small"
          fullWidth
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': `field-${name}` } as object } }}
        >
          {options.map((option) => (
            <MenuItem key={optionKey(option.value)} value={optionKey(option.value)}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

export function SwitchInput({
  name,
  label,
  disabled,
  onToggled,
}: FieldProps & { onToggled?: (on: boolean) => void }) {
  const { control } = useFormContext();
  useShownField(name);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          disabled={disabled}
          control={
            <Switch
              name={field.name}
              inputRef={field.ref}
              checked={field.value === true}
              onChange={(event) => {
                field.onChange(event.target.checked);
                onToggled?.(event.target.checked);
              }}
              slotProps={{ input: { 'data-testid': `field-${name}` } as object }}
            />
          }
        />
      )}
    />
  );
}

/**
 * A threshold interval: a value 0..99 with its unit h or d. The server names the
 * interval itself in its field errors (it receives seconds), the schema the value or the unit:
 * each shows at the value.
 */
export function IntervalInput({ name, label, required }: FieldProps) {
  const { t } = useTranslation();
  const { errors } = useFormState({ name });
  const own = get(errors, name) as { message?: string } | undefined;
  const { control } = useFormContext();
  // The interval's own error, its value's and its unit's all show at the value.
  useShownField(name, `${name}.value`, `${name}.unit`);
  return (
    <Stack direction="row" spacing={1}>
      <Controller
        name={`${name}.value`}
        control={control}
        render={({ field, fieldState }) => {
          const error = fieldState.error?.message ?? own?.message;
          return (
            <TextField
              {...field}
              value={shown(field.value)}
              type="number"
              label={label}
              required={required}
              size="small"
              fullWidth
              error={!!error}
              helperText={error}
              slotProps={{ htmlInput: { step: 1, 'data-testid': `field-${name}` } }}
            />
          );
        }}
      />
      <Controller
        name={`${name}.unit`}
        control={control}
        render={({ field }) => (
          <TextField
            select
            {...field}
            label={t('device-config.fields.unit')}
            size="small"
            sx={{ minWidth: 110 }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': `field-${name}.unit` } as object } }}
          >
            {INTERVAL_UNITS.map((unit) => (
              <MenuItem key={unit} value={unit}>
                {t(`device-config.intervalUnits.${unit}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </Stack>
  );
}
