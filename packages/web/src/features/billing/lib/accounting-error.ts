import type { TFunction } from 'i18next';
import {
  ACCOUNTING_ERRORS,
  INVOICE_EXPORT_ERRORS,
  type AccountingError,
  type InvoiceExportError,
} from '@tankportal/shared/schemas/billing';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-texts.ts';

export const isAccountingError = (value: unknown): value is AccountingError =>
  (ACCOUNTING_ERRORS as readonly unknown[]).includes(value);

const isExportError = (value: unknown): value is InvoiceExportError =>
  (INVOICE_EXPORT_ERRORS as readonly unknown[]).includes(value);

/**
 * The toast of a failed booking in the accounting service (decision 048): the server names why
 * (ACCOUNTING_ERRORS, or an export refusal such as a missing seller) and the web says it in the
 * user's language; anything else by its kind, never the server's own English.
 */
export function accountingErrorText(error: unknown, t: TFunction): string {
  const message = error instanceof ApiError ? error.body?.message : undefined;
  if (isAccountingError(message)) return t(`billing.accountingErrors.${message}`);
  if (isExportError(message)) return t(`billing.exportErrors.${message}`);
  if (error instanceof ApiError && error.status >= 500) return t('billing.accountingErrors.generic');
  return errorText(error, t);
}
