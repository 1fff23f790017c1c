import { z } from 'zod';
import { pathId, queryInteger } from '@tankportal/shared/schemas/common';
import {
  billingRecipientBody,
  billingTermsSchema,
  createBillingTermsBody,
  systemBillingTermsSchema,
  updateBillingTermsBody,
} from '@tankportal/shared/schemas/billing';
import { optionalText } from '@tankportal/shared/schemas/device-metadata';
import { toFieldError } from '@tankportal/shared/field-errors';
import type { Api, AppContext } from '../../../context.ts';
import { requireAcceptedDebtorIdent } from '../../../billing/accounting/debtor-ident.ts';
import {
  addBillingTerms,
  billingTermsOfDevice,
  billingTermsPage,
  changeBillingTerms,
  deleteBillingTerms,
  findBillingTerms,
} from '../../../billing/billing-terms.ts';
import { debtorIdentsInUse, setBillingRecipient, setDebtorIdent } from '../../../billing/debtors.ts';
import { invalidFields } from '../../../http-error.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { presentBillingTerms, presentSystemBillingTerms } from '../../../presenters/billing-terms.ts';
import { errorSchema } from '../../schemas.ts';
import { sendExport } from '../exports/send-export.ts';
import { billingTermsExport } from '../../../billing/export-billing-terms.ts';

import { LOCALES } from '@tankportal/shared/constants';
import { germanDay, SCHEDULE_TIME_ZONE } from '../../../time/zone.ts';

const deviceParams = z.object({ id: pathId() });
const termsParams = z.object({ termsId: pathId() });

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
      const rows = await billingTermsOfDevice(db, request.params.id);
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
      const row = await addBillingTerms(db, authorOf(request), request.params.id, request.body);
      return reply
        .code(201)
        .header('location', `/api/v2/billing-terms/${row.id}`)
        .send(presentBillingTerms(row));
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
      return presentBillingTerms(await findBillingTerms(db, request.params.termsId));
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
      const current = await findBillingTerms(db, request.params.termsId);
      // The cross-field rules depend on the stored alias: checked here, in the same error shape.
      const checked = createBillingTermsBody.safeParse({ ...request.body, alias: current.alias });
      if (!checked.success) throw invalidFields(checked.error.issues.map(toFieldError));
      const invoicedUntil =
        request.body.invoicedUntil === undefined ? current.invoicedUntil : request.body.invoicedUntil;
      return presentBillingTerms(
        await changeBillingTerms(db, authorOf(request), current, checked.data, invoicedUntil),
      );
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
      await deleteBillingTerms(db, authorOf(request), request.params.termsId);
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
      const { rows, total } = await billingTermsPage(db, request.query.page);
      reply.header('x-total-count', String(total));
      const today = germanDay(new Date());
      return rows.map((row) => presentSystemBillingTerms(row, today));
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
    async () => (await debtorIdentsInUse(db)).map((ident) => ({ ident })),
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
      await setDebtorIdent(db, authorOf(request), request.params.id, request.body.ident ?? null);
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
      await setBillingRecipient(db, authorOf(request), request.params.id, request.body);
      return reply.code(204).send(null);
    },
  );
}
