import { asc, count, eq, isNotNull, max, min } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { pathId, queryInteger } from '@tankportal/shared/schemas/common';
import {
  BILLING_TERMS_PAGE_SIZE,
  billingRecipientBody,
  billingTermsSchema,
  createBillingTermsBody,
  systemBillingTermsSchema,
  updateBillingTermsBody,
} from '@tankportal/shared/schemas/billing';
import { optionalText } from '@tankportal/shared/schemas/device-metadata';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import type { Api, AppContext } from '../../../context.ts';
import { requireAcceptedDebtorIdent } from '../../../billing/accounting/debtor-ident.ts';
import type { Db } from '../../../db/client.ts';
import { billingTerms, devices, invoiceItems, smsGateways, users } from '../../../db/schema.ts';
import { nextInvoicingAt } from '../../../billing/periods.ts';
import { invalidFields, notFound } from '../../../http-error.ts';
import { errorSchema } from '../../schemas.ts';
import { sendExport } from '../exports/send-export.ts';
import { billingTermsExport } from '../../../billing/export-billing-terms.ts';

import { LOCALES } from '@tankportal/shared/constants';
import { germanDay, SCHEDULE_TIME_ZONE } from '../../../time/zone.ts';

type TermsRow = typeof billingTerms.$inferSelect;

const deviceParams = z.object({ id: pathId() });
const termsParams = z.object({ termsId: pathId() });

export function presentBillingTerms(row: TermsRow, today = germanDay(new Date())) {
  return {
    id: row.id,
    deviceId: row.deviceId,
    alias: row.alias,
    price: row.price,
    currency: row.currency,
    chargingPeriodType: row.chargingPeriodType,
    timeOfInvoicing: row.timeOfInvoicing,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    invoicedUntil: row.invoicedUntil,
    nextInvoicingAt: row.nextInvoicingAt,
    isScheduled: row.nextInvoicingAt === null || row.nextInvoicingAt > today,
    additionalText: row.additionalText,
    custom: { name: row.customName, exemptedQuantity: row.exemptedQuantity },
  };
}

async function requireDevice(db: Db, id: number) {
  const [device] = await db.select({ id: devices.id }).from(devices).where(eq(devices.id, id));
  if (!device) throw notFound();
}

async function findTerms(db: Db, id: number): Promise<TermsRow> {
  const [row] = await db.select().from(billingTerms).where(eq(billingTerms.id, id));
  if (!row) throw notFound();
  return row;
}

/**
 * Refuses a change the invoicing run could not bill, against the periods already on invoices (the
 * shared rules check the dates among themselves): "invoiced until" cleared or moved before the
 * last of them (the run would bill them again), a validity that begins after the first of them or
 * ends before the last.
 */
async function refuseUnbillable(
  db: Db,
  termsId: number,
  body: { validFrom: string; validUntil?: string | null; invoicedUntil: string | null },
) {
  const [billed] = await db
    .select({ from: min(invoiceItems.periodBegin), until: max(invoiceItems.periodEnd) })
    .from(invoiceItems)
    .where(eq(invoiceItems.billingTermsId, termsId));
  if (!billed?.from || !billed.until) return;
  const errors: FieldError[] = [];
  if (body.invoicedUntil === null || body.invoicedUntil < billed.until)
    errors.push({ path: 'invoicedUntil', code: 'min', args: { min: billed.until, reason: 'billedUntil' } });
  if (body.validFrom > billed.from)
    errors.push({ path: 'validFrom', code: 'max', args: { max: billed.from, reason: 'afterBilledPeriods' } });
  if (body.validUntil && body.validUntil < billed.until)
    errors.push({
      path: 'validUntil',
      code: 'min',
      args: { min: billed.until, reason: 'beforeBilledPeriods' },
    });
  if (errors.length > 0) throw invalidFields(errors);
}

/** The columns a create or change writes, with the next invoicing day derived from them. */
function termsValues(
  alias: TermsRow['alias'],
  body: z.infer<typeof updateBillingTermsBody>,
  invoicedUntil: string | null,
) {
  const values = {
    alias,
    price: body.price,
    chargingPeriodType: body.chargingPeriodType,
    timeOfInvoicing: body.timeOfInvoicing,
    validFrom: body.validFrom,
    validUntil: body.validUntil ?? null,
    invoicedUntil,
    additionalText: body.additionalText,
    customName: body.name,
    exemptedQuantity: body.exemptedQuantity ?? null,
  };
  return { ...values, nextInvoicingAt: nextInvoicingAt(values) };
}

/**
 * A device's billing terms, its debtor and billing recipient (the billing
 * tab). Master only (the billing tab also needs the access-managing permission, which a
 * master holds on every device): everyone else 403, and nothing changes.
 */
export function billingTermsRoutes(app: Api, { db, config }: AppContext) {
  const master = { config: { role: 'ROLE_MASTER' } } as const;

  app.get(
    '/devices/:id/billing-terms',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: "A device's billing terms with invoicedUntil and nextInvoicingAt",
        params: deviceParams,
        response: { 200: z.array(billingTermsSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      await requireDevice(db, request.params.id);
      const rows = await db
        .select()
        .from(billingTerms)
        .where(eq(billingTerms.deviceId, request.params.id))
        .orderBy(asc(billingTerms.id));
      return rows.map((row) => presentBillingTerms(row));
    },
  );

  app.post(
    '/devices/:id/billing-terms',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Adds billing terms to a device',
        params: deviceParams,
        body: createBillingTermsBody,
        response: { 201: billingTermsSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      await requireDevice(db, request.params.id);
      const [row] = await db
        .insert(billingTerms)
        .values({ deviceId: request.params.id, ...termsValues(request.body.alias, request.body, null) })
        .returning();
      return reply
        .code(201)
        .header('location', `/api/v2/billing-terms/${row!.id}`)
        .send(presentBillingTerms(row!));
    },
  );

  app.get(
    '/billing-terms/:termsId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'One billing term',
        params: termsParams,
        response: { 200: billingTermsSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      return presentBillingTerms(await findTerms(db, request.params.termsId));
    },
  );

  app.put(
    '/billing-terms/:termsId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Changes billing terms (the alias stays); invoicedUntil may be corrected by hand',
        params: termsParams,
        body: updateBillingTermsBody,
        response: { 200: billingTermsSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const current = await findTerms(db, request.params.termsId);
      // The cross-field rules depend on the stored alias: checked here, in the same error shape.
      const checked = createBillingTermsBody.safeParse({ ...request.body, alias: current.alias });
      if (!checked.success) throw invalidFields(checked.error.issues.map(toFieldError));
      const body = checked.data;
      const invoicedUntil =
        request.body.invoicedUntil === undefined ? current.invoicedUntil : request.body.invoicedUntil;
      await refuseUnbillable(db, current.id, { ...body, invoicedUntil });
      const [row] = await db
        .update(billingTerms)
        .set(termsValues(current.alias, body, invoicedUntil))
        .where(eq(billingTerms.id, current.id))
        .returning();
      return presentBillingTerms(row!);
    },
  );

  app.delete(
    '/billing-terms/:termsId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Deletes billing terms (invoices already made keep their items)',
        params: termsParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const [row] = await db
        .delete(billingTerms)
        .where(eq(billingTerms.id, request.params.termsId))
        .returning({ id: billingTerms.id });
      if (!row) throw notFound();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/billing-terms',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          'Every billing term with its device (debtor, user, gateways), by device, 100 per page; ' +
          'x-total-count counts the terms',
        querystring: z.object({ page: queryInteger({ min: 1 }).default(1) }),
        response: { 200: z.array(systemBillingTermsSchema), 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const inbound = alias(smsGateways, 'inbound');
      const outbound = alias(smsGateways, 'outbound');
      const [rows, [total]] = await Promise.all([
        db
          .select({
            terms: billingTerms,
            device: { id: devices.id, name: devices.name, debtorIdent: devices.debtorIdent },
            username: users.username,
            inbound: { provider: inbound.provider, owner: inbound.owner },
            outbound: { provider: outbound.provider, owner: outbound.owner },
          })
          .from(billingTerms)
          .innerJoin(devices, eq(devices.id, billingTerms.deviceId))
          .innerJoin(users, eq(users.id, devices.userId))
          .leftJoin(inbound, eq(inbound.id, devices.inboundGatewayId))
          .leftJoin(outbound, eq(outbound.id, devices.outboundGatewayId))
          .orderBy(asc(billingTerms.deviceId), asc(billingTerms.id))
          .limit(BILLING_TERMS_PAGE_SIZE)
          .offset((request.query.page - 1) * BILLING_TERMS_PAGE_SIZE),
        db.select({ count: count() }).from(billingTerms),
      ]);
      reply.header('x-total-count', String(total!.count));
      const gateway = (row: { provider: string | null; owner: string | null } | null) =>
        row?.provider ? { provider: row.provider, username: row.owner ?? '' } : null;
      const today = germanDay(new Date());
      return rows.map((row) => ({
        ...presentBillingTerms(row.terms, today),
        device: {
          id: row.device.id,
          name: row.device.name,
          debtor: row.device.debtorIdent ? { ident: row.device.debtorIdent } : null,
          user: { username: row.username },
          inboundGateway: gateway(row.inbound),
          outboundGateway: gateway(row.outbound),
        },
      }));
    },
  );

  app.get(
    '/billing-terms/export',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Every billing term with its device as a spreadsheet (xlsx) to download',
        querystring: z.object({ locale: z.enum(LOCALES).default('de') }),
        response: {
          200: z.string().describe('The xlsx file, as an attachment'),
          400: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const { locale } = request.query;
      return sendExport(request, reply, billingTermsExport(db, locale), {
        format: 'xlsx',
        locale,
        timeZone: SCHEDULE_TIME_ZONE,
      });
    },
  );

  app.get(
    '/debtors',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'The debtor idents in use, for the debtor choice',
        response: { 200: z.array(z.object({ ident: z.string() })), 403: errorSchema },
      },
    },
    async () => {
      const rows = await db
        .selectDistinct({ ident: devices.debtorIdent })
        .from(devices)
        .where(isNotNull(devices.debtorIdent))
        .orderBy(asc(devices.debtorIdent));
      return rows.map((row) => ({ ident: row.ident! }));
    },
  );

  app.put(
    '/devices/:id/debtor',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          "Sets a device's debtor ident (the customer number in the accounting service); null " +
          'removes it; with Lexware Office configured it must be one of its customer numbers (an integer)',
        params: deviceParams,
        body: z.object({ ident: optionalText(64) }),
        response: { 204: z.null(), 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      requireAcceptedDebtorIdent(config, 'ident', request.body.ident);
      const [row] = await db
        .update(devices)
        .set({ debtorIdent: request.body.ident ?? null })
        .where(eq(devices.id, request.params.id))
        .returning({ id: devices.id });
      if (!row) throw notFound();
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/devices/:id/billing-recipient',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: "Sets a device's invoice recipient address, order number and Leitweg-ID",
        params: deviceParams,
        body: billingRecipientBody,
        response: { 204: z.null(), 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      // Absent fields keep their value: a body naming none changes nothing.
      const changes = Object.fromEntries(
        Object.entries(request.body).filter(([, value]) => value !== undefined),
      ) as Partial<Record<keyof typeof request.body, string | null>>;
      if (Object.keys(changes).length === 0) {
        await requireDevice(db, request.params.id);
        return reply.code(204).send(null);
      }
      const [row] = await db
        .update(devices)
        .set(changes)
        .where(eq(devices.id, request.params.id))
        .returning({ id: devices.id });
      if (!row) throw notFound();
      return reply.code(204).send(null);
    },
  );
}
