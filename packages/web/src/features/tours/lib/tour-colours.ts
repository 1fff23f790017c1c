/**
 * A tour's colour on the map and beside its table: dark enough for its white stop numbers (4.5:1)
 * and apart from each other; a day with more tours than colours starts over.
 */
export const TOUR_COLOURS = [
  '#1565c0',
  '#c62828',
  '#2e7d32',
  '#6a1b9a',
  '#ad4f00',
  '#00695c',
  '#4527a0',
  '#37474f',
];

export const tourColour = (index: number) => TOUR_COLOURS[index % TOUR_COLOURS.length]!;
