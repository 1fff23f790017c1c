// The reference of the users-me benchmark: a bare Fastify route answering a user of the same shape.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const user = {
  id: 2,
  username: 'admin',
  name: 'Anton Admin',
  firstName: 'Anton',
  lastName: 'Admin',
  company: 'Heizöl Beispiel GmbH',
  role: 'ROLE_ADMIN',
  status: 'ok',
  parentUserId: 1,
  assignableRoles: ['ROLE_DEMO', 'ROLE_APP_USER', 'ROLE_USER'],
  impersonator: null,
};
app.get('/api/v2/users/me', async () => user);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
