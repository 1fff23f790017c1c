import type { TFunction } from 'i18next';
import { ACCOUNTING_ERRORS, type AccountingError } from '@tankportal/shared/schemas/billing';
import { ApiError } from '../../../lib/api-client.ts';

const isAccountingError = (value: unknown): value is AccountingError =>
  (ACCOUNTING_ERRORS as readonly unknown[]).includes(value);

/**
 * The toast of a failed invoice creation in the accounting service (portal-area §8): a 4xx with a
 * message says the server's words, a known failure of the service its own text, anything else
 * the generic "Something went wrong".
 */
export function accountingErrorText(error: unknown, t: TFunction): string {
  const message = error instanceof ApiError ? error.body?.message : undefined;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && message) return message;
  if (isAccountingError(message)) return t(`billing.accountingErrors.${message}`);
  return t('billing.accountingErrors.generic');
}
