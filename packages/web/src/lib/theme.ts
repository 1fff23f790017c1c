import { createTheme, darken, getContrastRatio, lighten } from '@mui/material/styles';

/** WCAG 2.1 AA's least contrast for text (1.4.3). */
export const TEXT_CONTRAST = 4.5;

/**
 * The top bar's strongest highlight on the primary colour: white at this opacity, under the
 * selected language (weaker ones: the current page, the search field).
 */
export const BAR_HIGHLIGHT = 0.2;

const DEFAULT_COLOURS = { primary: '#0b5394', secondary: '#e69138' };

const whiteTextHolds = (background: string) => getContrastRatio(background, '#fff') >= TEXT_CONTRAST;

/**
 * A white-label's brand colour as the portal uses it for the primary: white text on it holds
 * 4.5:1 even under the top bar's highlight, and so does the colour as text on white (links, tabs,
 * outlined buttons). A colour that does is kept as it is; a lighter one is darkened in small
 * steps until it does.
 */
export function readablePrimary(colour: string): string {
  return darkenedUntil(colour, (shade) => whiteTextHolds(lighten(shade, BAR_HIGHLIGHT)));
}

/** A colour as text on white (a chart's series colour naming its column): darkened to 4.5:1. */
export function readableText(colour: string): string {
  return darkenedUntil(colour, whiteTextHolds);
}

function darkenedUntil(colour: string, holds: (shade: string) => boolean): string {
  let shade = colour;
  for (let step = 1; !holds(shade); step++) shade = darken(colour, Math.min(step * 0.05, 1));
  return shade;
}

/** A colour MUI can read (hex, rgb(), hsl()); anything else falls back to the default. */
function readable(colour: string | undefined, fallback: string): string {
  if (!colour) return fallback;
  try {
    getContrastRatio(colour, '#fff');
    return colour;
  } catch {
    return fallback;
  }
}

/**
 * The portal's theme in a white-label's colours. Every text keeps WCAG AA contrast whatever the
 * brand colours are: the primary is darkened where needed (`readablePrimary`), and MUI picks the
 * text on a coloured background (badges, chips, contained buttons) by 4.5:1, not by its default
 * 3:1.
 */
export function portalTheme(colours?: { primary: string; secondary: string }) {
  return createTheme({
    palette: {
      contrastThreshold: TEXT_CONTRAST,
      primary: { main: readablePrimary(readable(colours?.primary, DEFAULT_COLOURS.primary)) },
      secondary: { main: readable(colours?.secondary, DEFAULT_COLOURS.secondary) },
      // MUI's orange (3.1:1 on white) is the text of outlined warning chips and of the health and
      // forecast notes (its dark shade, 3.8:1); this one holds 5:1, its dark shade more.
      warning: { main: '#b45309' },
    },
    components: {
      // MUI's grey for an unselected toggle button (54 % black) falls below 4.5:1 on a light grey
      // page (the login page); the secondary text colour (60 %) holds it.
      MuiToggleButton: {
        styleOverrides: { root: ({ theme }) => ({ color: theme.palette.text.secondary }) },
      },
    },
  });
}
