import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { alpha } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@tankportal/shared/constants';
import { changeLocale } from '../lib/i18n.ts';
import { BAR_HIGHLIGHT } from '../lib/theme.ts';

/** DE / EN, kept in a cookie for a year. */
export function LanguageSwitch({ color = 'standard' }: { color?: 'standard' | 'inherit' }) {
  const { t, i18n } = useTranslation();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={i18n.language}
      aria-label={t('nav.language')}
      onChange={(_event, locale: Locale | null) => locale && void changeLocale(locale)}
      sx={
        color === 'inherit'
          ? {
              '& .MuiToggleButton-root': { color: 'inherit', borderColor: 'rgba(255,255,255,0.5)' },
              // The selected language in the bar's text colour too (MUI's dark text is unreadable
              // there), on a highlight the theme's primary keeps readable (theme.ts).
              '& .MuiToggleButton-root.Mui-selected': {
                color: 'inherit',
                bgcolor: `${alpha('#fff', BAR_HIGHLIGHT)} !important`,
              },
            }
          : undefined
      }
    >
      {LOCALES.map((locale) => (
        <ToggleButton key={locale} value={locale} aria-label={locale.toUpperCase()}>
          {locale.toUpperCase()}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
