// The message log page's query plans with the single-filter indexes on status, mode and type as
// migrated, and with them partial (left out for the values the reports of net and MQTT devices
// have: status processed, mode deviceToSystem, type net, iot, lx_iot), on a generated log in PostgreSQL. The ingest writes a log row
// per report, and each index costs it time per row (bench/ingest-index-cost.ts): an index may be
// made partial only where the page's reads stay served. Writes bench/results/message-log-plans.md.
// BENCH_MESSAGES (default 3,000,000) rows over two years, 1,000 devices, one admin of a tenth.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { MessageListQuery } from '@tankportal/shared/schemas/messages';
import { openDatabase, type Db } from '../packages/server/src/db/client.ts';
import * as schema from '../packages/server/src/db/schema.ts';
import { messagePage } from '../packages/server/src/repositories/messages.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'tp_bench_message_plans';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3_000_000);

const url = new URL(ADMIN_URL);
url.pathname = `/${DATABASE}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${DATABASE}`);
await (await openDatabase({ url: url.toString() })).close();

const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
pool.on('error', () => {}); // the database is dropped at the end
// The statements the page sends, caught as the repository builds them.
let caught: { text: string; params: unknown[] } | null = null;
const db = drizzle(pool, {
  schema,
  casing: 'snake_case',
  logger: { logQuery: (text, params) => (caught = { text, params }) },
}) as unknown as Db;

/**
 * A master, an admin whose subtree owns a tenth of 1,000 devices, and the log: reports in (their
 * device's type, processed, deviceToSystem), every tenth an SMS out to the device, every twentieth
 * a notification mail; 3 % of the reports could not be parsed.
 */
const started = performance.now();
await pool.query(`
  INSERT INTO users (id, username, password_hash, role) VALUES (1, 'master', 'x', 'ROLE_MASTER'), (2, 'admin', 'x', 'ROLE_ADMIN');
  INSERT INTO users (id, parent_user_id, username, password_hash, role)
    SELECT 2 + i, CASE WHEN i <= 10 THEN 2 ELSE 1 END, 'user' || i, 'x', 'ROLE_USER' FROM generate_series(1, 100) i;
  SELECT setval('users_id_seq', 200);
  INSERT INTO devices (id, type, ident_type, ident_code, user_id, name)
    SELECT d, (ARRAY['net', 'iot', 'lx_iot', 'sms'])[1 + d % 4], 'net_ident_code', 'dev' || d, 3 + (d - 1) / 10, 'device ' || d
    FROM generate_series(1, 1000) d;
  SELECT setval('devices_id_seq', 2000);`);
await pool.query(
  `INSERT INTO messages (device_id, type, direction, mode, status, content, created_at)
  SELECT 1 + i % 1000,
    CASE WHEN i % 20 = 7 THEN 'mail' WHEN i % 10 = 3 THEN 'sms' ELSE (ARRAY['net', 'iot', 'lx_iot', 'sms'])[1 + (1 + i % 1000) % 4] END,
    CASE WHEN i % 20 = 7 OR i % 10 = 3 THEN 'out' ELSE 'in' END,
    CASE WHEN i % 20 = 7 THEN 'systemToExternal' WHEN i % 10 = 3 THEN 'systemToDevice' ELSE 'deviceToSystem' END,
    CASE WHEN i % 20 = 7 THEN 'sent' WHEN i % 10 = 3 THEN 'delivered' WHEN i % 100 < 3 THEN 'parsing_failed' ELSE 'processed' END,
    '{"report":1}', now() - interval '730 days' * (1 - i::float8 / $1)
  FROM generate_series(1, $1) i`,
  [MESSAGES],
);
await pool.query('VACUUM ANALYZE messages');
const generated = (performance.now() - started) / 1000;

const [master] = await db.select().from(schema.users).where(eq(schema.users.id, 1));
const [adminUser] = await db.select().from(schema.users).where(eq(schema.users.id, 2));
const maxId = Number((await pool.query('SELECT max(id) AS id FROM messages')).rows[0].id);

const base: MessageListQuery = { sort: 'createdAt:desc', page: 1, perPage: 100 };
const cases: [string, Partial<MessageListQuery>][] = [
  ['status parsing_failed', { status: 'parsing_failed' }],
  ['status processed', { status: 'processed' }],
  ['mode systemToExternal', { mode: 'systemToExternal' }],
  ['mode deviceToSystem', { mode: 'deviceToSystem' }],
  [
    'type sms, the last 4 days (the default filter)',
    { type: 'sms', from: new Date(Date.now() - 4 * 86_400_000) },
  ],
  ['type mail', { type: 'mail' }],
  ['type iot', { type: 'iot' }],
  ['no filter', {}],
  ['sorted by status, ascending', { sort: 'status:asc' }],
  ['sorted by status, descending', { sort: 'status:desc' }],
  ['sorted by type, ascending', { sort: 'type:asc' }],
  ['sorted by type, descending', { sort: 'type:desc' }],
];

/** The page's statement as the repository builds it, with EXPLAIN ANALYZE's plan and time. */
async function explain(actor: typeof master, query: MessageListQuery) {
  caught = null;
  await messagePage(db, actor, query, maxId);
  const statement = caught as { text: string; params: unknown[] } | null;
  if (!statement) throw new Error('no statement caught');
  const { rows } = await pool.query(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.text}`, statement.params);
  const plan = rows.map((row: Record<string, string>) => row['QUERY PLAN']);
  const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1]);
  return { plan, ms };
}

const variants = [
  ['as migrated', []],
  [
    'partial',
    [
      'DROP INDEX messages_status_created',
      'DROP INDEX messages_mode_created',
      'DROP INDEX messages_type_created',
      `CREATE INDEX messages_status_created ON messages (status, created_at) WHERE status <> 'processed'`,
      `CREATE INDEX messages_mode_created ON messages (mode, created_at) WHERE mode <> 'deviceToSystem'`,
      `CREATE INDEX messages_type_created ON messages (type, created_at) WHERE type NOT IN ('net', 'iot', 'lx_iot')`,
      'ANALYZE messages',
    ],
  ],
] as const;

const sections: string[] = [];
const summary: string[] = [];
for (const [variant, statements] of variants) {
  for (const statement of statements) await pool.query(statement);
  for (const [actorName, actor] of [
    ['master', master],
    ['admin (a tenth of the devices)', adminUser],
  ] as const) {
    for (const [label, filter] of cases) {
      // Warm, then measured: the plan shown is the second run's.
      await explain(actor, { ...base, ...filter });
      const { plan, ms } = await explain(actor, { ...base, ...filter });
      summary.push(`| ${variant} | ${actorName} | ${label} | ${ms.toFixed(1)} |`);
      sections.push(`### ${variant}: ${actorName}, ${label}\n\n\`\`\`\n${plan.join('\n')}\n\`\`\``);
    }
  }
}

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(', ');
writeFileSync(
  path.join(ROOT, 'bench/results/message-log-plans.md'),
  `# Message log page: plans with the status, mode and type indexes as migrated and partial

Recorded by \`node bench/message-log-plans.ts\` on ${new Date().toISOString().slice(0, 10)} (PostgreSQL,
${cpus().length} cores, load average ${load} at the end; the log generated in ${generated.toFixed(0)} s).
${MESSAGES.toLocaleString('en')} messages of 1,000 devices over two years: reports in (processed,
deviceToSystem), every tenth an SMS out, every twentieth a notification mail, 3 % not parsed. The
page's statements as \`repositories/messages.ts\` builds them (page 1, 100 rows, newest first
unless sorted otherwise), EXPLAIN ANALYZE of the second run. "partial": the three indexes without the
rows of the values the reports of net and MQTT devices have (\`WHERE status <> 'processed'\`,
\`WHERE mode <> 'deviceToSystem'\`, \`WHERE type NOT IN ('net', 'iot', 'lx_iot')\`).

| indexes | actor | filter | execution ms |
|---|---|---|---|
${summary.join('\n')}

## Plans

${sections.join('\n\n')}
`,
);
console.log(summary.join('\n'));
await pool.end();
await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
await admin.end();
