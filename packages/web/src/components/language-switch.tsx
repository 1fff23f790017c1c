import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@tankportal/shared/constants';
import { changeLocale } from '../lib/i18n.ts';

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
              '& .Mui-selected': { bgcolor: 'rgba(255,255,255,0.2) !important' },
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
