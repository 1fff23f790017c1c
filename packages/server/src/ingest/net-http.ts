import type { FastifyInstance, FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { toFieldError } from '@tankportal/shared/field-errors';
import { isPrintableText } from '@tankportal/shared/schemas/common';
import { reportV1 } from '@tankportal/shared/protocols/report';
import type { IngestContext } from './ingest-context.ts';
import { errorBody } from '../http-error.ts';
import { hashToken } from '../policies/tokens.ts';
import {
  logParsingFailed,
  parseAndStoreReport,
  recordUnassigned,
  refusalError,
  storeReport,
} from './store-report.ts';
import type { WriteAllowance } from './ingest-write-limit.ts';

const envelope = z.object({
  // No control characters or lone surrogates: the database could neither look them up nor store them.
  identCode: z.string().trim().min(1).max(64).refine(isPrintableText),
  secret: z.string().min(1).max(256),
});

/** Most reports in one batch request (docs/protocols.md). */
export const MAX_NET_BATCH = 100;

/** The batch form: a logger's buffered reports in one request. */
const batch = z.object({ reports: z.array(reportV1).min(1).max(MAX_NET_BATCH) });

/** Constant-time comparison of a secret with its stored hash. */
export function secretMatches(storedHash: string | null, secret: string): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashToken(secret));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The answer when a refused body or an unknown ident was not recorded because its client or ident
 * used up its minute (ingest-write-limit.ts): 429, nothing written.
 */
function tooMany(reply: FastifyReply, logged: WriteAllowance & { allowed: false }) {
  return reply
    .code(429)
    .header('retry-after', String(logged.retryAfterSeconds))
    .send(errorBody(429, 'Too many unknown or malformed reports; try again later'));
}

/**
 * net devices report over HTTP(S): `POST /ingest/net/v1` with their ident code and secret
 * (docs/protocols.md), either one report or, in the batch form, the reports a logger buffered
 * (`reports: [...]`). The answer comes after the commit, so a device that gets no 200 sends again;
 * its message ids make the repetition harmless. A configuration waiting for the device comes with
 * the answer. Outside /api: no session, no CSRF.
 */
export function registerNetIngest(app: FastifyInstance, ingest: IngestContext) {
  // 100 reports of the largest size fit (4 sensors, 32 alarms each). The body's keys go through the
  // case conversion of every request, the reports of a batch do not: their keys are camelCase
  // (docs/protocols.md), and converting a hundred reports deeply cost more than parsing them.
  const options = { bodyLimit: 262_144, config: { opaqueBodyPaths: ['reports'] } };
  app.post('/ingest/net/v1', options, async (request, reply) => {
    const { secret: _secret, ...logged } = (request.body ?? {}) as Record<string, unknown>;
    const content = JSON.stringify(logged);
    const sender = envelope.safeParse(request.body);
    if (!sender.success) {
      const fieldErrors = sender.error.issues.map(toFieldError);
      // Nobody known sent it: counted against the client's address.
      const logged = await logParsingFailed(ingest, { type: 'net' }, content, fieldErrors, {
        source: request.ip,
      });
      if (!logged.allowed) return tooMany(reply, logged);
      return reply.code(400).send(errorBody(400, 'Malformed report', fieldErrors));
    }
    const { identCode, secret } = sender.data;
    const from = { type: 'net', identType: 'net_ident_code', ident: identCode } as const;
    const device = await ingest.deviceDirectory.find('identCode', identCode);
    if (!device || device.type !== 'net') {
      const recorded = await recordUnassigned(ingest, 'net', identCode, request.ip);
      if (!recorded.allowed) return tooMany(reply, recorded);
      return reply.code(404).send(errorBody(404, 'Unknown ident code: recorded as an unassigned net device'));
    }
    if (!secretMatches(device.secretHash, secret))
      return reply.code(401).send(errorBody(401, 'Wrong device secret'));

    if ('reports' in logged) {
      // All or nothing: a malformed report refuses the whole request before anything is stored, so
      // the device can repeat the corrected batch as it is.
      const parsed = batch.safeParse(logged);
      if (!parsed.success) {
        const fieldErrors = parsed.error.issues.map(toFieldError);
        // The device gave its secret: counted against its ident alone, not its (maybe shared) address.
        const logged = await logParsingFailed(ingest, from, content, fieldErrors, { deviceId: device.id });
        if (!logged.allowed) return tooMany(reply, logged);
        return reply.code(400).send(errorBody(400, 'Malformed report', fieldErrors));
      }
      const { reports } = parsed.data;
      // Each report is logged and stored as if sent alone (its own message and message id); they
      // go through the batcher together, so they share its transactions.
      const results = await Promise.all(
        reports.map((report) =>
          storeReport(ingest, device.id, from, report, JSON.stringify({ identCode, ...report })),
        ),
      );
      // Refused by the database although valid (logged as parsing_failed): the request's other
      // reports are stored; a repetition finds them as duplicates.
      const refused = results.flatMap((result, index) =>
        result.refused ? [refusalError(result.refused, `reports.${index}`)] : [],
      );
      if (refused.length > 0) return reply.code(400).send(errorBody(400, 'Malformed report', refused));
      const last = reports.length - 1;
      const configuration = await ingest.deviceChannels.net.take(
        device.id,
        reports[last],
        results[last].duplicate,
      );
      return reply.code(200).send({
        results: results.map((result, index) => ({
          messageId: reports[index].messageId,
          status: result.duplicate ? 'duplicate' : 'processed',
          stored: result.stored,
        })),
        ...(configuration && { configuration }),
      });
    }

    const taken = await parseAndStoreReport(ingest, device.id, from, request.body, content);
    if (!taken.parsed) {
      if (!taken.logged.allowed) return tooMany(reply, taken.logged);
      return reply.code(400).send(errorBody(400, 'Malformed report', taken.fieldErrors));
    }
    const { report, result } = taken;
    if (result.refused)
      return reply.code(400).send(errorBody(400, 'Malformed report', [refusalError(result.refused)]));
    // A configuration saved in the portal meanwhile goes with the answer (docs/protocols.md).
    const configuration = await ingest.deviceChannels.net.take(device.id, report, result.duplicate);
    return reply.code(200).send({
      status: result.duplicate ? 'duplicate' : 'processed',
      stored: result.stored,
      ...(configuration && { configuration }),
    });
  });
}
