import { and, desc, eq, sql } from 'drizzle-orm';
import type {
  InvoicingResult,
  InvoicingRunTrigger,
  SkippedTerm,
} from '@tankportal/shared/schemas/invoicing-runs';
import type { Db } from '../db/client.ts';
import { invoicingRuns, messages, users } from '../db/schema.ts';
import { enqueue } from '../queue/queue.ts';
import { DELIVER_NOTIFICATION } from '../notifications/delivery.ts';

/** The reasons in the masters' mail (the web has the same words in its locales). */
const REASONS: Record<SkippedTerm['reason'], { de: string; en: string }> = {
  alreadyInvoiced: {
    de: '„Abgerechnet bis“ liegt vor bereits abgerechneten Zeiträumen',
    en: '"invoiced until" lies before periods already invoiced',
  },
  invoicedBeforeValidity: {
    de: '„Abgerechnet bis“ liegt vor „Gültig ab“',
    en: '"invoiced until" lies before "valid from"',
  },
  missingName: { de: 'die Kondition hat keine Bezeichnung', en: 'the term has no name' },
  periodError: { de: 'die Zeiträume sind nicht berechenbar', en: 'its periods cannot be computed' },
  amountTooLarge: {
    de: 'die Rechnung überschritte den höchsten Rechnungsbetrag',
    en: 'the invoice would exceed the largest invoice amount',
  },
  failed: { de: 'die Abrechnung des Debitors schlug fehl', en: 'billing the debtor failed' },
};

const line = (term: SkippedTerm, locale: 'de' | 'en') =>
  `- ${locale === 'de' ? 'Debitor' : 'debtor'} ${term.debtorIdent}, ${locale === 'de' ? 'Gerät' : 'device'} ${
    term.deviceId
  }, ${locale === 'de' ? 'Kondition' : 'term'} ${term.termsId}${term.name ? ` (${term.name})` : ''}: ${
    REASONS[term.reason][locale]
  }`;

/** The mail to masters about a nightly run's skipped terms, German first, then English. */
export function skippedMail(result: InvoicingResult): string {
  const count = result.skipped.length;
  const subject = `Abrechnungslauf ${result.day}: ${count} ${count === 1 ? 'Kondition' : 'Konditionen'} nicht abgerechnet / Invoicing run: ${count} ${count === 1 ? 'term' : 'terms'} not billed`;
  const de = [
    `Der nächtliche Abrechnungslauf vom ${result.day} hat ${result.invoices.length} Rechnungen erstellt und diese Konditionen übersprungen:`,
    ...result.skipped.map((term) => line(term, 'de')),
    'Bitte korrigieren Sie die Konditionen im Reiter „Abrechnung“ des Geräts; der nächste Lauf rechnet sie dann ab. Die Läufe stehen unter System › Abrechnung › Abrechnungsläufe.',
  ];
  const en = [
    `The nightly invoicing run of ${result.day} created ${result.invoices.length} invoices and skipped these terms:`,
    ...result.skipped.map((term) => line(term, 'en')),
    "Please correct the terms in the device's billing tab; the next run then bills them. The runs are listed under System › Billing › Invoicing runs.",
  ];
  return `${subject}\n\n${de.join('\n')}\n\n${en.join('\n')}`;
}

/**
 * Keeps a finished run for the system billing page. A nightly run that skipped terms also mails
 * every master who has an e-mail address (a Message each, delivered by the notification job, written
 * in the same transaction as the record): nobody watches the page at 02:30.
 */
export async function recordInvoicingRun(
  db: Db,
  result: InvoicingResult,
  { trigger, userId = null }: { trigger: InvoicingRunTrigger; userId?: number | null },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(invoicingRuns)
      .values({ day: result.day, trigger, userId, result })
      .returning({ id: invoicingRuns.id });
    if (trigger === 'nightly' && result.skipped.length > 0) {
      const masters = await tx
        .select({ id: users.id, email: sql<string | null>`${users.contact}->>'email'` })
        .from(users)
        .where(
          and(
            eq(users.role, 'ROLE_MASTER'),
            eq(users.status, 'ok'),
            sql`coalesce(${users.contact}->>'email', '') <> ''`,
          ),
        );
      const content = skippedMail(result);
      const outgoing = masters.map((master) => ({
        type: 'mail' as const,
        direction: 'out' as const,
        mode: 'systemToExternal' as const,
        status: 'created' as const,
        content,
        userId: master.id,
        toIdent: master.email,
        toType: 'email',
      }));
      if (outgoing.length > 0) {
        const created = await tx.insert(messages).values(outgoing).returning({ id: messages.id });
        await enqueue(
          tx,
          DELIVER_NOTIFICATION,
          created.map((row) => ({ v: 1 as const, messageId: row.id })),
        );
      }
    }
    return run!.id;
  });
}

/** The latest invoicing runs, newest first, with the username of who started each (null: the schedule). */
export const latestInvoicingRuns = (db: Db, limit: number) =>
  db
    .select({ run: invoicingRuns, username: users.username })
    .from(invoicingRuns)
    .leftJoin(users, eq(users.id, invoicingRuns.userId))
    .orderBy(desc(invoicingRuns.finishedAt), desc(invoicingRuns.id))
    .limit(limit);
