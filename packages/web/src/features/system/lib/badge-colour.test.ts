import { describe, expect, it } from 'vitest';
import { getContrastRatio } from '@mui/material/styles';
import { portalTheme, TEXT_CONTRAST } from '../../../lib/theme.ts';
import { badgeColour } from './badge-colour.ts';

describe("the notification bell's badge", () => {
  it('takes the colour of the most severe open notification', () => {
    expect(badgeColour([])).toBeNull();
    expect(badgeColour(['info', 'minor'])).toBe('info');
    expect(badgeColour(['info', 'significant', 'minor'])).toBe('warning');
    expect(badgeColour(['significant', 'critical', 'info'])).toBe('error');
  });

  it('keeps its count readable in each of those colours (WCAG AA)', () => {
    const { palette } = portalTheme();
    for (const colour of ['error', 'warning', 'info'] as const)
      expect(
        getContrastRatio(palette[colour].contrastText, palette[colour].main),
        colour,
      ).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });
});
