import { useContext } from 'react';
import { useFormState, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import { ShownFieldsContext } from './form-fields.tsx';

export interface PathError {
  path: string;
  message: string;
}

/** Keys of react-hook-form's error objects that are not sub-fields. */
const OWN_KEYS = new Set(['type', 'message', 'ref', 'types', 'root']);

/** Every error of the form with its field path (`sensors.1.capacity`), client's and server's alike. */
export function errorPaths(errors: FieldErrors | Record<string, unknown>, prefix = ''): PathError[] {
  const found: PathError[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (OWN_KEYS.has(key) || value === null || typeof value !== 'object') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string') found.push({ path, message });
    found.push(...errorPaths(value as Record<string, unknown>, path));
  }
  return found;
}

/**
 * The errors that have no input on screen to show at, split from those that do: "check the marked
 * fields" only when a field is marked, and the rest listed by name, so that a save is never refused
 * without saying why.
 */
export function splitByShown(errors: PathError[], shown: ReadonlySet<string>) {
  return {
    marked: errors.filter((error) => shown.has(error.path)),
    unmarked: errors.filter((error) => !shown.has(error.path)),
  };
}

/** Above the configuration's fields, always in view: what keeps the form from saving. */
export function ConfigurationErrorSummary() {
  const { t } = useTranslation();
  const { errors } = useFormState();
  const shown = useContext(ShownFieldsContext) ?? new Set<string>();
  const all = errorPaths(errors);
  if (!all.length) return null;
  const { marked, unmarked } = splitByShown(all, shown);
  const label = (path: string) => {
    const parts = path.split('.');
    const field = parts.at(-1)!;
    if (path === 'sensors') return t('device-config.sections.sensors');
    const sensor = parts[0] === 'sensors' && /^\d+$/.test(parts[1] ?? '') ? Number(parts[1]) + 1 : null;
    const keys = [`device-config.fields.${field}`, `device-config.sensor.${field}`];
    // A field without a label of its own is named by its path: an operator can still report it.
    const name = t(sensor ? keys.reverse() : keys, { defaultValue: path });
    return sensor ? `${t('device-config.sensor.title', { sequence: sensor })}: ${name}` : name;
  };
  return (
    <Alert severity="error" data-testid="configuration-errors">
      {marked.length > 0 ? t('device-config.checkFields') : t('device-config.cannotSave')}
      {unmarked.length > 0 && (
        <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
          {unmarked.map((error) => (
            <li key={error.path}>
              {label(error.path)}: {error.message}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
