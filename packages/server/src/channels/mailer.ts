import nodemailer from 'nodemailer';

export interface OutboundMail {
  to: string;
  subject: string;
  text: string;
}

/** No SMTP server is configured (embedded default): mails are recorded, not sent. */
export class MailNotConfiguredError extends Error {}

/** The SMTP server refused the mail for good (5xx): sending it again would be refused again. */
export class MailRejectedError extends Error {}

/**
 * E-mail through the SMTP server of `SMTP_URL` (nodemailer). Timeouts stay well inside a job's
 * lease, so a hanging server fails the attempt (and it is retried) instead of holding the job.
 */
export class Mailer {
  private readonly transport: ReturnType<typeof nodemailer.createTransport> | null;
  readonly from: string;

  constructor(smtpUrl: string | undefined, from: string) {
    this.from = from;
    this.transport = smtpUrl
      ? nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        })
      : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  /** Hands the mail to the SMTP server; answers the server's reply (for the message log). */
  async send(mail: OutboundMail): Promise<string> {
    if (!this.transport)
      throw new MailNotConfiguredError('not sent: no SMTP server is configured (SMTP_URL)');
    try {
      const info = await this.transport.sendMail({ from: this.from, ...mail });
      return String(info.response ?? info.messageId ?? 'accepted');
    } catch (error) {
      const failure = error as Error & { permanent?: boolean };
      if (failure.permanent) throw new MailRejectedError(`SMTP server refused the mail: ${failure.message}`);
      throw error;
    }
  }
}
