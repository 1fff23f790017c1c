import type { Locale } from './constants.ts';
import type { AuditAction, AuditEntity, AuditEntry } from './schemas/audit.ts';

/**
 * The one wording of the record of changes: the changes tabs, the masters' page and the export
 * name an action and an object with these words.
 */
// Partial while the vocabulary grows: an action without words yet is shown by its code.
const ACTIONS: Record<Locale, Partial<Record<AuditAction, string>>> = {
  de: {
    update_metadata: 'Stammdaten geändert',
    update_comment: 'Kommentar geändert',
    update_master_comment: 'Master-Kommentar geändert',
    update_public_url: 'Öffentliche Seite geändert',
    update_active: 'Aktivierung geändert',
    assign: 'Übergeben',
    delete: 'Gelöscht',
    reset_gps: 'GPS-Position zurückgesetzt',
    update_configuration: 'Konfiguration geändert',
    grant: 'Zugriff erteilt',
    change: 'Zugriff geändert',
    revoke: 'Zugriff entzogen',
    enable_second_factor: 'Zwei-Faktor-Anmeldung eingerichtet',
    disable_second_factor: 'Zwei-Faktor-Anmeldung abgeschaltet',
    reset_second_factor: 'Zwei-Faktor-Anmeldung zurückgesetzt',
    use_recovery_code: 'Wiederherstellungscode verwendet',
    update_second_factor_policy: 'Zwei-Faktor-Pflicht geändert',
  },
  en: {
    update_metadata: 'Base data changed',
    update_comment: 'Comment changed',
    update_master_comment: 'Master comment changed',
    update_public_url: 'Public page changed',
    update_active: 'Activation changed',
    assign: 'Handed over',
    delete: 'Deleted',
    reset_gps: 'GPS position reset',
    update_configuration: 'Configuration changed',
    grant: 'Access granted',
    change: 'Access changed',
    revoke: 'Access revoked',
    enable_second_factor: 'Two-factor sign-in set up',
    disable_second_factor: 'Two-factor sign-in switched off',
    reset_second_factor: 'Two-factor sign-in reset',
    use_recovery_code: 'Recovery code used',
    update_second_factor_policy: 'Two-factor requirement changed',
  },
};

const ENTITIES: Record<Locale, Partial<Record<AuditEntity, string>>> = {
  de: { device: 'Gerät', device_access: 'Gerätezugriff' },
  en: { device: 'Device', device_access: 'Device access' },
};

export const auditActionText = (locale: Locale, action: AuditAction) => ACTIONS[locale][action] ?? action;
export const auditEntityText = (locale: Locale, entity: AuditEntity) => ENTITIES[locale][entity] ?? entity;

const shown = (value: unknown) => (value === null || value === undefined ? '—' : String(value));

/** The changed fields as one line of text: `name: Alt → Neu; password: geändert`. */
export function auditChangesText(locale: Locale, changes: AuditEntry['changes']): string {
  return Object.entries(changes)
    .map(([field, change]) =>
      'secret' in change
        ? `${field}: ${locale === 'de' ? 'geändert' : 'changed'}`
        : `${field}: ${shown(change.old)} → ${shown(change.new)}`,
    )
    .join('; ');
}
