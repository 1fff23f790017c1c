import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/**
 * A wide table's box that scrolls sideways on a narrow screen. It takes the keyboard focus (in the
 * tab order, named by its table), so that a keyboard user can scroll it with the arrow keys too:
 * the table itself has nothing to focus.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} sx={{ overflowX: 'auto' }}>
      {children}
    </Box>
  );
}
