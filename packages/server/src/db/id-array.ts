import { sql, type SQL } from 'drizzle-orm';

/**
 * Integer ids as one array parameter, for `column = ANY(…)`: `inArray` makes a parameter of each id,
 * and a list page's hundred ids were a hundred parameters for drizzle to build and the driver to
 * send, three times a page.
 */
export const idArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;
