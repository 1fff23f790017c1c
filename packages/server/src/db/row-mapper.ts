import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

/** A selected field as the query builder lists it for its prepared query: where it goes, what it is. */
export interface SelectedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A query builder's SQL with its decoder (internal to drizzle: `.mapWith` sets it). */
type DecodedSql = { decoder: Decoder };

/** The decoder drizzle's own row mapping uses for a field (`mapResultRow` in drizzle-orm/utils). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as DecodedSql).decoder;
  if (is(field, Subquery)) return (field._.sql as unknown as DecodedSql).decoder;
  return (field as { sql: DecodedSql }).sql.decoder;
}

/**
 * A row mapper for one query shape, worked out once: it gives for an array-mode row exactly the
 * object drizzle's `mapResultRow` gives (nested selections, a left-joined table's object null when
 * its first column is null and all its columns come from that table), but decides each field's
 * decoder, place and null rule once instead of per cell. Per cell, drizzle tests the field's class
 * twice and walks its path with an iterator: for a list page's some 8,000 cells that was about a
 * fifth of the request's processor time in Node.
 */
export function compileRowMapper(
  fields: SelectedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): (row: unknown[]) => Record<string, unknown> {
  // Each cell's place: on the row itself, in one of the row's nested objects (a path of two, as
  // every selection here has), or deeper (walked as drizzle does). A decoder that gives its input
  // back (text, boolean, a column without a mapping of its own) is not called.
  const groups: string[] = [];
  const cells = fields.map(({ path, field }) => {
    const decoder = decoderOf(field);
    const decode = decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : decoder;
    const key = path[path.length - 1]!;
    if (path.length === 1) return { group: -1, parents: [], key, decode };
    if (path.length > 2) return { group: -2, parents: path.slice(0, -1), key, decode };
    if (!groups.includes(path[0]!)) groups.push(path[0]!);
    return { group: groups.indexOf(path[0]!), parents: [], key, decode };
  });
  // The objects a left join may leave empty: drizzle looks at each nested object's first column.
  const nullable: { name: string; firstCell: number }[] = [];
  if (joinsNotNullableMap) {
    const seen = new Map<string, string | false>();
    const firstCell = new Map<string, number>();
    fields.forEach(({ path, field }, index) => {
      if (!is(field, Column) || path.length !== 2) return;
      const table = getTableName(field.table);
      const name = path[0]!;
      if (!seen.has(name)) {
        seen.set(name, table);
        firstCell.set(name, index);
      } else if (seen.get(name) !== table) seen.set(name, false);
    });
    for (const [name, table] of seen)
      if (table !== false && !joinsNotNullableMap[table])
        nullable.push({ name, firstCell: firstCell.get(name)! });
  }
  return (row) => {
    const result: Record<string, unknown> = {};
    const nested: (Record<string, unknown> | undefined)[] = new Array(groups.length);
    for (let index = 0; index < cells.length; index++) {
      const { group, parents, key, decode } = cells[index]!;
      const raw = row[index];
      const value = raw === null || decode === null ? raw : decode.mapFromDriverValue(raw);
      if (group >= 0) {
        let node = nested[group];
        if (node === undefined) result[groups[group]!] = node = nested[group] = {};
        node[key] = value;
      } else if (group === -1) result[key] = value;
      else {
        let node = result;
        for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
        node[key] = value;
      }
    }
    for (const { name, firstCell } of nullable) if (row[firstCell] === null) result[name] = null;
    return result;
  };
}

/** Drizzle's prepared query of either driver, as far as the mapping goes (internal fields). */
export interface MappablePreparedQuery {
  execute(placeholderValues?: Record<string, unknown>): Promise<unknown>;
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** Sets a prepared select's rows to be mapped by `mapper` (arrays of cells, as drizzle reads them). */
export function mapRowsWith(prepared: MappablePreparedQuery, mapper: (row: unknown[]) => unknown) {
  prepared.customResultMapper = (rows) => rows.map(mapper);
  return prepared;
}

/**
 * For a select whose text varies between calls (its filters and order) but whose selected fields do
 * not: runs a builder unnamed with the row mapper compiled at the first call.
 */
export function selectMappedOnce<T>() {
  let mapper: ((row: unknown[]) => unknown) | undefined;
  return async (builder: object): Promise<T[]> => {
    // `_prepare` is the builder's own step before `execute` (unnamed: the text is not fixed).
    const prepared = (builder as { _prepare(): MappablePreparedQuery })._prepare();
    mapper ??= compileRowMapper(prepared.fields!, prepared.joinsNotNullableMap);
    return (await mapRowsWith(prepared, mapper).execute()) as T[];
  };
}
