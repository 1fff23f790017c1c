import type { SxProps, Theme } from '@mui/material/styles';
import { VISUALLY_HIDDEN } from './visually-hidden.ts';

/**
 * A table whose rows become cards on a phone (below `sm`): one card per row, each cell on
 * a line of its own with its column's name before it, so no column (the actions least of all) is
 * cut off and the page does not scroll sideways. Put it on the `Table` and give every body cell
 * `data-label` (its column's name); the header stays for screen readers only.
 */
export const cardsOnPhone: SxProps<Theme> = (theme) => ({
  [theme.breakpoints.down('sm')]: {
    display: 'block',
    '& thead': VISUALLY_HIDDEN,
    '& tbody': { display: 'block' },
    '& tbody tr': {
      display: 'block',
      border: 1,
      borderColor: 'divider',
      borderRadius: 1,
      mb: 1,
      py: 0.5,
    },
    '& tbody td': {
      display: 'flex',
      // MUI reverses a right-aligned cell (its label would come after the actions).
      flexDirection: 'row',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: 2,
      border: 0,
      py: 0.5,
      px: 1.5,
      textAlign: 'left',
      overflowWrap: 'anywhere',
    },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label)',
      flex: '0 0 auto',
      color: 'text.secondary',
      fontWeight: 500,
    },
  },
});
