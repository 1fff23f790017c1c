import { z } from 'zod';
import {
  configurationFields,
  configurationSchemaFor,
  integerRule,
  INTERVAL_MAX_VALUE,
  INTERVAL_UNITS,
  requiredIfMissing,
  requiredOrInvalid,
  type ConfigurationContext,
} from '@tankportal/shared/schemas/device-configuration';

// The configuration form's schema: the shared field rules, the ones the server checks the body
// by, read the way the form's inputs give their values. Only the reading is the form's own.

/** An input's text: empty, or not a number, is "nothing entered". */
function inputNumber(value: unknown): unknown {
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    return /^[-+]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
  }
  return value;
}

/** A number's rule applied to what its input holds ('' and NaN are empty, numeric text a number). */
const readInput = <T extends z.ZodType>(rule: T) => z.preprocess(inputNumber, rule);

/** An interval as the form shows it: 0..99 hours or days. */
function intervalInput() {
  return z.object(
    {
      value: readInput(integerRule(0, INTERVAL_MAX_VALUE)),
      unit: z.enum(INTERVAL_UNITS, { error: requiredOrInvalid }),
    },
    { error: requiredIfMissing },
  );
}

const formFields = configurationFields({ number: readInput, interval: intervalInput });
type FormObject = z.ZodObject<typeof formFields>;

/** What the form holds (its inputs may still be strings). */
export type ConfigurationFormInput = z.input<FormObject>;
/** What the form's resolver gives back once valid. */
export type ConfigurationForm = z.output<FormObject>;

/**
 * The configuration form of one device: the rules of its body, intervals as value + unit; the
 * master's form also asks for the thing name, which it shows.
 */
export function deviceConfigurationForm(
  context: ConfigurationContext,
): z.ZodType<Partial<ConfigurationForm>, Partial<ConfigurationFormInput>> {
  return configurationSchemaFor(formFields, context, { masterMustGiveThingName: true });
}
