import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { contactBody, contactSchema } from '@tankportal/shared/schemas/contacts';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { presentContact } from '../../../presenters/contact.ts';
import { createContact, deleteOwnContact, updateOwnContact } from '../../../commands/contacts.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { contactsOf, findOwnContact } from '../../../repositories/contacts.ts';
import { errorSchema } from '../../schemas.ts';

const contactIdParams = z.object({ id: pathId() });
const byHandle = new Intl.Collator('de', { sensitivity: 'base', numeric: true });

/**
 * The actor's contact book. A contact belongs to one user: another
 * user's contact answers 404 as if it did not exist. ROLE_USER and up; demo and app users 403.
 */
export function contactRoutes(app: Api, { db }: AppContext) {
  async function findOrThrow(userId: number, id: number) {
    const found = await findOwnContact(db, userId, id);
    if (!found) throw notFound();
    return presentContact(found.contact, found.deviceCount);
  }

  app.get(
    '/contacts',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['contacts'],
        summary: "The actor's contacts, sorted by handle",
        response: { 200: z.array(contactSchema), 403: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const rows = await contactsOf(db, actor.id);
      return rows
        .map((row) => presentContact(row.contact, row.deviceCount))
        .sort((a, b) => byHandle.compare(a.handle, b.handle) || a.id - b.id);
    },
  );

  app.get(
    '/contacts/:id',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['contacts'],
        summary: 'One contact of the actor',
        params: contactIdParams,
        response: { 200: contactSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => findOrThrow(actorOf(request).user.id, request.params.id),
  );

  app.post(
    '/contacts',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['contacts'],
        summary: 'Adds a contact to the actor’s contact book',
        body: contactBody,
        response: { 201: contactSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const author = authorOf(request);
      const row = await createContact(db, author, author.actor.user.id, request.body);
      return reply.code(201).header('location', `/api/v2/contacts/${row.id}`).send(presentContact(row, 0));
    },
  );

  app.put(
    '/contacts/:id',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['contacts'],
        summary: 'Changes a contact of the actor',
        params: contactIdParams,
        body: contactBody,
        response: { 200: contactSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      if (!(await updateOwnContact(db, authorOf(request), request.params.id, request.body))) throw notFound();
      return findOrThrow(actor.id, request.params.id);
    },
  );

  app.delete(
    '/contacts/:id',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['contacts'],
        summary: 'Deletes a contact of the actor, and with it its notification recipients',
        params: contactIdParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      if (!(await deleteOwnContact(db, authorOf(request), request.params.id))) throw notFound();
      return reply.code(204).send(null);
    },
  );
}
