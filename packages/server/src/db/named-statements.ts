import { sql, type Column, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';
import {
  compileRowMapper,
  mapRowsWith,
  type MappablePreparedQuery,
  type SelectedField,
} from './row-mapper.ts';

const dialect = new PgDialect();

/** What the drivers' sessions take: the statement's text and its parameters, and its name. */
interface Session {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string,
    isResponseInArrayMode: boolean,
  ): PreparedQuery;
}

/** Drizzle's prepared query of either driver (internal: which fields it maps its rows with). */
interface PreparedQuery extends MappablePreparedQuery {
  getQuery(): { sql: string; params: unknown[] };
  _isResponseInArrayMode?: boolean;
}

const sessionOf = (db: Db | Tx) => db._.session as unknown as Session;

/**
 * Runs a statement of fixed text as a named prepared statement: on PostgreSQL it is parsed once per
 * connection and, after a few runs, planned once (a generic plan). For the statements every ingest
 * batch runs, parsing and planning anew each time cost PostgreSQL about as much as storing the
 * batch's rows (bench/README.md). `name` must stand for this one text: the parameters vary, the
 * text does not. The query builder turns `query` into text on every call: for the statements run
 * with every batch, `namedStatement` writes it once.
 */
export async function runNamed<T>(db: Db | Tx, name: string, query: SQL): Promise<{ rows: T[] }> {
  const prepared = sessionOf(db).prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  return (await prepared.execute()) as { rows: T[] };
}

/**
 * A statement whose SQL text is written once, with `$1`, `$2` … for its parameters, and run by
 * name (see `runNamed`): nothing of it is built per call, and values only ever travel as
 * parameters. `run` answers the rows as the driver gives them (column names as in the SQL).
 */
export function namedStatement<T = unknown>(name: string, text: string) {
  return {
    name,
    text,
    async run(db: Db | Tx, params: unknown[]): Promise<{ rows: T[] }> {
      const prepared = sessionOf(db).prepareQuery({ sql: text, params }, undefined, name, false);
      return (await prepared.execute()) as { rows: T[] };
    },
  };
}

/**
 * A query builder's statement (a `select` whose rows the builder maps to its typed objects, an
 * `update` …) built into SQL once, at its first run, and then run by name in any transaction with
 * its placeholders' values: the builder walks its tables' columns each time it builds, which for
 * the statements of every ingest batch cost more than running them. `build` must give the same
 * text each time (no values in it: `sql.placeholder`, e.g. `anyOfIds`).
 */
export function builtOnce<T>(name: string, build: (db: Db | Tx) => { prepare(name: string): unknown }) {
  let built: {
    query: { sql: string; params: unknown[] };
    fields: SelectedField[] | undefined;
    arrayMode: boolean;
    mapper?: (row: unknown[]) => unknown;
  };
  return async (db: Db | Tx, values: Record<string, unknown>): Promise<T[]> => {
    if (!built) {
      const first = build(db).prepare(name) as PreparedQuery;
      built = {
        query: first.getQuery(),
        fields: first.fields,
        arrayMode: first._isResponseInArrayMode ?? false,
        mapper: first.fields ? compileRowMapper(first.fields, first.joinsNotNullableMap) : undefined,
      };
    }
    const prepared = sessionOf(db).prepareQuery(built.query, built.fields, name, built.arrayMode);
    // The mapper knows the left joins' null rule (drizzle's own mapping would need joinsNotNullableMap).
    if (built.mapper) mapRowsWith(prepared, built.mapper);
    return (await prepared.execute(values)) as T[];
  };
}

/**
 * `column = ANY(:ids)` for a query builder's `.prepare(name)`, executed with `{ ids }`: one
 * statement text for any number of ids (an IN list has a text per count).
 */
export const anyOfIds = (column: Column) => sql`${column} = ANY(${sql.placeholder('ids')})`;
