import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export type Fact = [key: string, label: string, value: ReactNode];

/** Label/value rows as a description list; each row's test id is `${rowTestIdPrefix}-${key}`. */
export function FactList({
  rows,
  rowTestIdPrefix,
  testId,
}: {
  rows: Fact[];
  rowTestIdPrefix: string;
  testId?: string;
}) {
  return (
    <Box
      component="dl"
      data-testid={testId}
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {rows.map(([key, label, value]) => (
        <Box key={key} sx={{ display: 'contents' }} data-testid={`${rowTestIdPrefix}-${key}`}>
          <Typography component="dt" color="text.secondary" variant="body2">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
