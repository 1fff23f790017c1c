import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.ts';
import type { LogStream } from '../plugins/logging.ts';
import { readConfig, type ServerConfig } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import { borrowTestDatabase } from './test-database.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { ensureDemoData } from '../seed/demo-data.ts';
import { CSRF_HEADER } from '@tankportal/shared/constants';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: ServerConfig;
  /** A new browser stand-in, signed in (demo password unless given). */
  signIn(username: string, password?: string): Promise<TestClient>;
  close(): Promise<void>;
}

/**
 * A server on a database with no rows but the seeds: an in-memory PGlite (emptied and handed to the
 * worker's next test file on close), or a new PostgreSQL database created from TEST_DATABASE_URL
 * (dropped again on close). Base and demo data are seeded as on a real start.
 */
export async function createTestApp(
  env: NodeJS.ProcessEnv = {},
  options: { logStream?: LogStream; webDist?: string } = {},
): Promise<TestApp> {
  const config = readConfig({ DEMO_DATA: '1', LOG_LEVEL: 'silent', ...env });
  const { database, giveBack } = await borrowTestDatabase();
  await ensureBaseData(database.db);
  await ensureDemoData(database.db);
  // Silent, unless a test reads the log (LOG_LEVEL in env then says how much).
  const app = await buildApp(database.db, config, {
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
    webDist: options.webDist,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    async signIn(username, password) {
      const client = new TestClient(app);
      await client.login(username, password);
      return client;
    },
    async close() {
      await app.close();
      await giveBack();
    },
  };
}

/** A browser stand-in: keeps cookies and the anti-forgery token between requests. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;
  private readonly app: FastifyInstance;
  constructor(app: FastifyInstance) {
    this.app = app;
  }

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method,
      url,
      payload: body as InjectOptions['payload'],
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(this.csrfToken && method !== 'GET' ? { [CSRF_HEADER]: this.csrfToken } : {}),
        ...headers,
      },
    });
    for (const set of response.cookies) {
      if (set.value === '' || (set.expires && set.expires.getTime() < Date.now()))
        this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    const token = response.headers[CSRF_HEADER];
    if (typeof token === 'string') this.csrfToken = token;
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }
  put(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PUT', url, body, headers);
  }
  delete(url: string, headers?: Record<string, string>) {
    return this.request('DELETE', url, undefined, headers);
  }

  /** Fetches a token (any API answer carries one) and signs in. */
  async login(username: string, password = 'tankportal') {
    if (!this.csrfToken) await this.get('/api/v2/whitelabels/current');
    const response = await this.post('/api/v2/login', { username, password });
    if (response.statusCode !== 200)
      throw new Error(`login ${username}: ${response.statusCode} ${response.body}`);
    return response;
  }
}
