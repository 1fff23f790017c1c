import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port.ts';

/** A mail as the test SMTP server received it, decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** Decodes quoted-printable or base64 transfer encoding to UTF-8 text. */
function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`)
      .replace(/%(?![0-9A-F]{2})/gi, '%25');
    return decodeURIComponent(bytes);
  }
  return body;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

/** Subject and text of a single-part mail as nodemailer writes a text-only message. */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map(
    head.split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  const body = raw.slice(split + 4);
  return {
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: decodeBody(body, (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase())
      .replace(/\r\n/g, '\n')
      .trim(),
  };
}

/**
 * A real SMTP server on loopback (no TLS, no authentication) that keeps every mail it accepts.
 * `stop()` and `start()` again on the same port stand for an SMTP server that is down for a while.
 */
export class TestSmtpServer {
  readonly mails: ReceivedMail[] = [];
  readonly port: number;
  private server: SMTPServer | null = null;

  private constructor(port: number) {
    this.port = port;
  }

  /** Reserves a port; the server listens only after `start()`. */
  static async onFreePort(): Promise<TestSmtpServer> {
    return new TestSmtpServer(await freePort());
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start() {
    const mails = this.mails;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 100,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            ...parseMail(Buffer.concat(chunks).toString('utf8')),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
