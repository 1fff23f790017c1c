import { useState } from 'react';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

export type TypedValueFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type'> & {
  /** The value as forms and the API take it ('' for none). */
  value: string;
  /** The value once the text reads as one; the text as typed while it does not (the form's rules say so). */
  onChange: (value: string) => void;
};

/**
 * A text field for a value that people write in their language's way (a day, a time) and forms
 * keep in one way: shows `value` as `show` writes it, hands on what `read` makes of the text.
 * Made anew (keyed) when the language changes.
 */
export function TypedValueField({
  value,
  onChange,
  show,
  read,
  ...rest
}: TypedValueFieldProps & {
  show: (value: string) => string;
  /** The value the text is, or null. */
  read: (text: string) => string | null;
}) {
  const [text, setText] = useState(() => show(value));
  const [shown, setShown] = useState(value);
  // A value set from outside (a form filled or reset) replaces what was typed.
  if (value !== shown) {
    setShown(value);
    if (value !== (read(text) ?? text)) setText(show(value));
  }
  return (
    <TextField
      {...rest}
      value={text}
      onChange={(event) => {
        const typed = event.target.value;
        const next = read(typed) ?? typed;
        setText(typed);
        setShown(next);
        onChange(next);
      }}
    />
  );
}
