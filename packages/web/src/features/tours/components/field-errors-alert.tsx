import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import type { FieldError } from '@tankportal/shared/field-errors';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';

/** The words of the list or field a plan's or a save's field error names (`orderIds.2` → the orders). */
const FIELDS: Record<string, string> = {
  day: 'tours.planning.day',
  depotId: 'tours.planning.depot',
  truckIds: 'tours.planning.trucks',
  truckId: 'tours.planning.trucks',
  orderIds: 'tours.orders.title',
  orderId: 'tours.orders.title',
  dueSensorIds: 'tours.due.title',
  sensorId: 'tours.due.title',
  driverUserId: 'tours.proposal.driver',
  stops: 'tours.proposal.stops',
};

/**
 * A refused plan or save, said in the user's words beside the button: each field error with the
 * field it is about (the form has no field of its own for a list's entries).
 */
export function FieldErrorsAlert({ error }: { error: unknown }) {
  const { t, i18n } = useTranslation();
  const fieldErrors = error instanceof ApiError ? (error.body?.fieldErrors ?? []) : [];
  if (!fieldErrors.length) return null;
  // The planner's own words first (a reason, or a field's code), the generic field texts else.
  const textOf = (fieldError: FieldError) => {
    const field = fieldError.path.split('.').findLast((part) => !/^\d+$/.test(part)) ?? '';
    const reason = fieldError.args?.reason;
    const keys = [
      ...(typeof reason === 'string' ? [`tours.fieldErrors.reasons.${reason}`] : []),
      `tours.fieldErrors.${field}.${fieldError.code}`,
    ];
    return keys.some((key) => i18n.exists(key)) ? t(keys) : fieldErrorText(t, fieldError);
  };
  return (
    <Alert severity="error" sx={{ mt: 2 }} data-testid="tour-field-errors">
      {fieldErrors.map((fieldError) => {
        const parts = fieldError.path.split('.');
        const named = [...parts].reverse().find((part) => FIELDS[part]);
        return (
          <div key={fieldError.path}>
            {named ? `${t(FIELDS[named]!)}: ` : ''}
            {textOf(fieldError)}
          </div>
        );
      })}
    </Alert>
  );
}
