import type { FastifyInstance } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { toFieldError } from '@tankportal/shared/field-errors';
import type { Db } from '../db/client.ts';
import { deviceDirectory } from './device-directory.ts';
import { errorBody } from '../plugins/errors.ts';
import { hashToken } from '../policies/tokens.ts';
import { takeNetConfiguration } from '../commands/update-configuration.ts';
import { logParsingFailed, parseReport, recordUnassigned, storeReport } from './store-report.ts';

const envelope = z.object({
  identCode: z.string().trim().min(1).max(64),
  secret: z.string().min(1).max(256),
});

/** Constant-time comparison of a secret with its stored hash. */
export function secretMatches(storedHash: string | null, secret: string): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashToken(secret));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * net devices report over HTTP(S): `POST /ingest/net/v1` with their ident code and secret
 * (docs/protocols.md). The answer comes after the commit, so a device that gets no 200 sends again;
 * its message id makes the repetition harmless. A configuration waiting for the device comes with
 * the answer. Outside /api: no session, no CSRF, no case conversion.
 */
export function registerNetIngest(app: FastifyInstance, db: Db) {
  app.post('/ingest/net/v1', { bodyLimit: 65_536 }, async (request, reply) => {
    const { secret: _secret, ...logged } = (request.body ?? {}) as Record<string, unknown>;
    const content = JSON.stringify(logged);
    const sender = envelope.safeParse(request.body);
    if (!sender.success) {
      const fieldErrors = sender.error.issues.map(toFieldError);
      await logParsingFailed(db, { type: 'net' }, content, fieldErrors);
      return reply.code(400).send(errorBody(400, 'Malformed report', fieldErrors));
    }
    const { identCode, secret } = sender.data;
    const from = { type: 'net', identType: 'net_ident_code', ident: identCode } as const;
    const device = await deviceDirectory(db).find('identCode', identCode);
    if (!device || device.type !== 'net') {
      await recordUnassigned(db, 'net', identCode, request.ip);
      return reply.code(404).send(errorBody(404, 'Unknown ident code: recorded as an unassigned net device'));
    }
    if (!secretMatches(device.secretHash, secret))
      return reply.code(401).send(errorBody(401, 'Wrong device secret'));
    const parsed = await parseReport(db, from, request.body, content);
    if (!parsed.ok) return reply.code(400).send(errorBody(400, 'Malformed report', parsed.fieldErrors));
    const result = await storeReport(db, device.id, from, parsed.report, content);
    // A configuration saved in the portal meanwhile goes with the answer (docs/protocols.md).
    const configuration = await takeNetConfiguration(
      db,
      device.id,
      parsed.report.messageId,
      result.duplicate,
    );
    return reply.code(200).send({
      status: result.duplicate ? 'duplicate' : 'processed',
      stored: result.stored,
      ...(configuration && { configuration }),
    });
  });
}
