import { count } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { smsGateways, whitelabels } from '../db/schema.ts';
import { SMS_GATEWAY_SEEDS } from '../lookups/sms-gateways.ts';

const IMPRINT = {
  de: 'Angaben gemäß § 5 DDG:\nBetreiber dieses Portals ist das Unternehmen, das Ihnen den Zugang bereitgestellt hat. Bitte tragen Sie hier Name, Anschrift, Vertretungsberechtigte, Kontakt, Registereintrag und Umsatzsteuer-ID Ihres Unternehmens ein.',
  en: 'Information pursuant to § 5 DDG:\nThis portal is operated by the company that gave you access. Please enter your company name, address, representatives, contact details, register entry and VAT id here.',
};
const PRIVACY = {
  de: 'Datenschutzerklärung:\nDas Portal verarbeitet Anmeldedaten (Benutzername, IP-Adresse, Zeitpunkt) zur Sicherung des Zugangs sowie die Messwerte Ihrer Geräte zur Erbringung des Dienstes. Es setzt nur technisch notwendige Cookies (Sitzung, Schutz vor Anfragefälschung, Sprache, zuletzt verwendeter Benutzername).',
  en: 'Privacy policy:\nThe portal processes sign-in data (username, IP address, time) to secure access, and the measurements of your devices to provide the service. It sets only technically necessary cookies (session, request-forgery protection, language, last used username).',
};

/** What every installation needs: a default white-label and the SMS gateways. Idempotent. */
export async function ensureBaseData(db: Db) {
  const [{ value: whitelabelCount }] = await db.select({ value: count() }).from(whitelabels);
  if (whitelabelCount === 0) {
    await db.insert(whitelabels).values({
      name: 'tankportal',
      isDefault: true,
      title: 'Tank Portal',
      theme: { primary: '#0b5394', secondary: '#e69138' },
      registrationUrl: null,
      legal: { imprint: IMPRINT, privacy: PRIVACY },
    });
  }
  const [{ value: gatewayCount }] = await db.select({ value: count() }).from(smsGateways);
  if (gatewayCount === 0) await db.insert(smsGateways).values([...SMS_GATEWAY_SEEDS]);
}
