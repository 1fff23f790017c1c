import { useId, type ReactNode, type Ref } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';

type InputProps = Pick<
  OutlinedInputProps,
  'name' | 'type' | 'autoComplete' | 'autoFocus' | 'onChange' | 'onBlur' | 'endAdornment' | 'inputProps'
>;

interface LoginFieldProps extends InputProps {
  label: string;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}

/**
 * An outlined text field drawn as MUI's TextField draws it (label, notched input, helper text),
 * from the parts TextField is made of: TextField itself also brings Select with its menu and
 * popover, about 15 kB gzip the login page never shows.
 */
export function LoginField({ label, required, error, helperText, ref, ...input }: LoginFieldProps) {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl ref={ref} required={required} error={error} variant="outlined">
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput id={id} label={label} aria-describedby={helperTextId} {...input} />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
