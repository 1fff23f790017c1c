import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { healthLabel } from '@tankportal/shared/health-texts';
import { useLocale } from '../../../../lib/i18n.ts';
import { EMPTY_WITHIN_DAYS, HEALTH_FILTERS, isHealthFilter, type HealthFilter } from '../../lib/health.ts';

const OFF = '';
const FIELD_SX = { minWidth: 180, flex: '0 1 220px' } as const;

/**
 * The tank intelligence list filters: devices with a doubtful sensor (any doubt or one kind), and tanks
 * forecast to run empty within 7, 14 or 30 days. Either can be off.
 */
export function IntelligenceFilters({
  health,
  emptyWithinDays,
  onChange,
}: {
  health: HealthFilter | undefined;
  emptyWithinDays: number | undefined;
  onChange: (change: { health?: HealthFilter; emptyWithinDays?: number }) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <>
      <TextField
        select
        size="small"
        label={t('devices.list.health.label')}
        value={health ?? OFF}
        onChange={(event) => {
          const value = event.target.value;
          onChange({ health: isHealthFilter(value) ? value : undefined });
        }}
        sx={FIELD_SX}
        slotProps={{
          inputLabel: { shrink: true },
          select: { displayEmpty: true, inputProps: { 'data-testid': 'health-filter' } },
        }}
      >
        <MenuItem value={OFF}>{t('devices.list.health.all')}</MenuItem>
        {HEALTH_FILTERS.map((filter) => (
          <MenuItem key={filter} value={filter}>
            {filter === 'any' ? t('devices.list.health.any') : healthLabel(filter, locale)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('devices.list.emptyWithin.label')}
        value={emptyWithinDays === undefined ? OFF : String(emptyWithinDays)}
        onChange={(event) => {
          const days = Number(event.target.value);
          onChange({ emptyWithinDays: event.target.value === OFF ? undefined : days });
        }}
        sx={FIELD_SX}
        slotProps={{
          inputLabel: { shrink: true },
          select: { displayEmpty: true, inputProps: { 'data-testid': 'empty-within-filter' } },
        }}
      >
        <MenuItem value={OFF}>{t('devices.list.emptyWithin.off')}</MenuItem>
        {EMPTY_WITHIN_DAYS.map((days) => (
          <MenuItem key={days} value={String(days)}>
            {t('devices.list.emptyWithin.days', { count: days })}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}
