import { sql, type Column, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';

const dialect = new PgDialect();

/**
 * Runs a statement of fixed text as a named prepared statement: on PostgreSQL it is parsed once per
 * connection and, after a few runs, planned once (a generic plan). For the statements every ingest
 * batch runs, parsing and planning anew each time cost PostgreSQL about as much as storing the
 * batch's rows (bench/README.md). `name` must stand for this one text: the parameters vary, the
 * text does not.
 */
export async function runNamed<T>(db: Db | Tx, name: string, query: SQL): Promise<{ rows: T[] }> {
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  return (await prepared.execute()) as { rows: T[] };
}

/**
 * `column = ANY(:ids)` for a query builder's `.prepare(name)`, executed with `{ ids }`: one
 * statement text for any number of ids (an IN list has a text per count).
 */
export const anyOfIds = (column: Column) => sql`${column} = ANY(${sql.placeholder('ids')})`;
