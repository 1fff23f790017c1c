import type { Locale } from './constants.ts';
import type { AuditAction, AuditEntity, AuditEntry } from './schemas/audit.ts';

/**
 * The one wording of the record of changes: the changes tabs, the masters' page and the export
 * name an action and an object with these words.
 */
const ACTIONS: Record<Locale, Record<AuditAction, string>> = {
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
    create: 'Angelegt',
    update: 'Geändert',
    add: 'Hinzugefügt',
    remove: 'Entfernt',
    update_login: 'Anmeldedaten geändert',
    update_password: 'Passwort geändert',
    update_basedata: 'Kontaktdaten geändert',
    sync_access: 'Zugriffe übernommen',
    issue_api_token: 'API-Token ausgestellt',
    remove_api_token: 'API-Token entfernt',
    update_debtor: 'Debitor geändert',
    update_billing_recipient: 'Rechnungsempfänger geändert',
    update_status: 'Status geändert',
    update_weather_station: 'Wetterstation geändert',
    publish: 'Veröffentlicht',
    remove_device: 'Gerät herausgenommen',
    reset_data: 'Daten zurückgesetzt',
    hide_measurement: 'Messwert ausgeblendet',
    update_invoice_seller: 'Rechnungssteller geändert',
    update_datev_settings: 'DATEV-Einstellungen geändert',
    enable_second_factor: 'Zwei-Faktor-Anmeldung eingerichtet',
    disable_second_factor: 'Zwei-Faktor-Anmeldung abgeschaltet',
    reset_second_factor: 'Zwei-Faktor-Anmeldung zurückgesetzt',
    use_recovery_code: 'Wiederherstellungscode verwendet',
    update_second_factor_policy: 'Zwei-Faktor-Pflicht geändert',
    sign_in_second_factor: 'Mit zweitem Faktor angemeldet',
    end_session: 'Sitzung beendet',
    end_other_sessions: 'Alle anderen Sitzungen beendet',
    add_passkey: 'Passkey hinzugefügt',
    remove_passkey: 'Passkey entfernt',
    update_replenishment: 'Automatische Nachbestellung geändert',
    deliver: 'Lieferung erfasst',
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
    create: 'Created',
    update: 'Changed',
    add: 'Added',
    remove: 'Removed',
    update_login: 'Login data changed',
    update_password: 'Password changed',
    update_basedata: 'Contact data changed',
    sync_access: 'Access taken over',
    issue_api_token: 'API token issued',
    remove_api_token: 'API token removed',
    update_debtor: 'Debtor changed',
    update_billing_recipient: 'Invoice recipient changed',
    update_status: 'Status changed',
    update_weather_station: 'Weather station changed',
    publish: 'Published',
    remove_device: 'Device taken out',
    reset_data: 'Data reset',
    hide_measurement: 'Measurement hidden',
    update_invoice_seller: 'Invoice seller changed',
    update_datev_settings: 'DATEV settings changed',
    enable_second_factor: 'Two-factor sign-in set up',
    disable_second_factor: 'Two-factor sign-in switched off',
    reset_second_factor: 'Two-factor sign-in reset',
    use_recovery_code: 'Recovery code used',
    update_second_factor_policy: 'Two-factor requirement changed',
    sign_in_second_factor: 'Signed in with a second factor',
    end_session: 'Session ended',
    end_other_sessions: 'All other sessions ended',
    add_passkey: 'Passkey added',
    remove_passkey: 'Passkey removed',
    update_replenishment: 'Automatic replenishment changed',
    deliver: 'Delivery recorded',
  },
};

const ENTITIES: Record<Locale, Record<AuditEntity, string>> = {
  de: {
    device: 'Gerät',
    device_access: 'Gerätezugriff',
    user: 'Benutzer',
    contact: 'Kontakt',
    notification_recipient: 'Benachrichtigungsempfänger',
    billing_terms: 'Abrechnungskonditionen',
    invoice: 'Rechnung',
    system_notification: 'Systemmeldung',
    weather_station: 'Wetterstation',
    ref_date_query: 'Stichtagsabfrage',
    delivery: 'Lieferung',
    whitelabel: 'White-Label',
    order: 'Bestellung',
    depot: 'Depot',
    truck: 'Fahrzeug',
    tour: 'Tour',
  },
  en: {
    device: 'Device',
    device_access: 'Device access',
    user: 'User',
    contact: 'Contact',
    notification_recipient: 'Notification recipient',
    billing_terms: 'Billing terms',
    invoice: 'Invoice',
    system_notification: 'System notification',
    weather_station: 'Weather station',
    ref_date_query: 'Reference-date query',
    delivery: 'Delivery',
    whitelabel: 'White-label',
    order: 'Order',
    depot: 'Depot',
    truck: 'Truck',
    tour: 'Tour',
  },
};

export const auditActionText = (locale: Locale, action: AuditAction) => ACTIONS[locale][action];
export const auditEntityText = (locale: Locale, entity: AuditEntity) => ENTITIES[locale][entity];

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
