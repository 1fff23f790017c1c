import { describe, expect, it } from 'vitest';
import { getContrastRatio, lighten } from '@mui/material/styles';
import { BAR_HIGHLIGHT, portalTheme, TEXT_CONTRAST } from './theme.ts';

// Brand colours a white-label may bring: the default blue, a light yellow, a mid grey, a
// saturated green, white and black.
const BRANDS = ['#0b5394', '#ffd500', '#808080', '#2ecc40', '#ffffff', '#000000'];

describe('portalTheme', () => {
  it('keeps a brand colour that is readable as it is', () => {
    expect(portalTheme({ primary: '#0b5394', secondary: '#e69138' }).palette.primary.main).toBe('#0b5394');
    expect(portalTheme().palette.primary.main).toBe('#0b5394');
  });

  it.each(BRANDS)('keeps every text readable with %s as primary and secondary', (brand) => {
    const { primary, secondary, warning, info } = portalTheme({ primary: brand, secondary: brand }).palette;
    // The primary as text on white, white text on it and on the top bar's highlight of it.
    expect(getContrastRatio(primary.main, '#fff')).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(getContrastRatio(primary.contrastText, primary.main)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(getContrastRatio('#fff', lighten(primary.main, BAR_HIGHLIGHT))).toBeGreaterThanOrEqual(
      TEXT_CONTRAST,
    );
    // The text MUI puts on a coloured background (the notification badge, chips).
    for (const colour of [secondary, warning, info])
      expect(getContrastRatio(colour.contrastText, colour.main)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });

  it('falls back to the default colours for one MUI cannot read', () => {
    const { primary, secondary } = portalTheme({ primary: 'corporate blue', secondary: '' }).palette;
    expect(primary.main).toBe('#0b5394');
    expect(secondary.main).toBe('#e69138');
  });
});
