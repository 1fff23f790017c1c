/** The query keys of the tour planner's data: a key is a prefix of the keys below it. */
export const tourKeys = {
  all: ['tours'] as const,
  depots: () => [...tourKeys.all, 'depots'] as const,
  trucks: () => [...tourKeys.all, 'trucks'] as const,
  /** The saved tours of a day and depot. */
  list: (day: string, depotId: number | null) => [...tourKeys.all, 'list', day, depotId] as const,
  one: (tourId: number) => [...tourKeys.all, 'one', tourId] as const,
  /** What the planning page offers for a day: confirmed orders and due tanks. */
  candidates: (day: string) => [...tourKeys.all, 'candidates', day] as const,
};
