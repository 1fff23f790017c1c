import type { ServerConfig } from '../../config/env.ts';
import { invalidFields } from '../../http-error.ts';
import { lexwareCustomerNumberIssue } from './lexware-office.ts';

/**
 * Refuses (400, code `invalid` with the reason) a debtor ident the configured accounting service
 * can never match — Lexware Office's customer numbers are integers — when it is set, not when the
 * first invoice fails. Without an accounting service any ident goes.
 */
export function requireAcceptedDebtorIdent(
  config: ServerConfig,
  path: string,
  ident: string | null | undefined,
) {
  if (!ident || !config.lexware) return;
  const reason = lexwareCustomerNumberIssue(ident);
  if (reason) throw invalidFields([{ path, code: 'invalid', args: { reason } }]);
}
