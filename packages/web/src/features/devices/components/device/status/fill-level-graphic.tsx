import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { SENSOR_ERROR_COLOR, sensorColor } from '@tankportal/shared/chart-colors';
import { formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { unitSymbol } from '@tankportal/shared/units';
import type { StatusSensor } from '../../../../../lib/api/devices.ts';
import { clampPercent, unitFractionDigits } from '../../../../../lib/sensor-totals.ts';
import { connectedLevelSensors, FILL_GRAPHIC_WIDTH, fillBarWidthShare } from './sensor-display.ts';

const TOP = 8;
const BODY_HEIGHT = 180;
const HEIGHT = TOP + BODY_HEIGHT + 52;
/** MUI's warning.main: the sign of a sensor whose readings are in doubt. */
const DOUBT_COLOR = '#ed6c02';

/** Outline of a tank (rounded box) or a silo (box on a cone), as an SVG path. */
function outline(subType: StatusSensor['subType'], x: number, width: number): string {
  const bottom = TOP + BODY_HEIGHT;
  if (subType === 'silo') {
    const shoulder = TOP + BODY_HEIGHT * 0.72;
    return `M${x},${TOP} H${x + width} V${shoulder} L${x + width / 2},${bottom} L${x},${shoulder} Z`;
  }
  const r = Math.min(14, width / 4);
  return (
    `M${x + r},${TOP} H${x + width - r} Q${x + width},${TOP} ${x + width},${TOP + r} ` +
    `V${bottom - r} Q${x + width},${bottom} ${x + width - r},${bottom} H${x + r} ` +
    `Q${x},${bottom} ${x},${bottom - r} V${TOP + r} Q${x},${TOP} ${x + r},${TOP} Z`
  );
}

function Tank({
  sensor,
  x,
  width,
  doubtful,
}: {
  sensor: StatusSensor;
  x: number;
  width: number;
  doubtful: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const clipId = useId();
  const failed = sensor.status === 'error';
  const pct = failed ? null : clampPercent(sensor.pct);
  const hasLevel = pct !== null;
  const color = failed ? SENSOR_ERROR_COLOR : sensorColor(sensor.sequence);
  const path = outline(sensor.subType, x, width);
  const fillHeight = (BODY_HEIGHT * (pct ?? 0)) / 100;
  const centre = x + width / 2;
  const pctText = hasLevel ? `${formatNumber(pct, locale)} %` : '';
  const valueText = failed
    ? t('device.status.sensorError')
    : sensor.value === null
      ? '–'
      : `${formatNumber(sensor.value, locale, unitFractionDigits(sensor.unit))} ${unitSymbol(sensor.unit)}`;
  return (
    <g
      role="img"
      aria-label={`${sensor.name}: ${failed ? valueText : [pctText, valueText].filter(Boolean).join(', ')}${
        doubtful ? ` (${t('device.health.doubtful')})` : ''
      }`}
      data-testid={`fill-level-${sensor.sequence}`}
      data-status={sensor.status}
      data-doubtful={doubtful}
    >
      <clipPath id={clipId}>
        <path d={path} />
      </clipPath>
      <path d={path} fill={failed ? `${SENSOR_ERROR_COLOR}14` : '#f5f5f5'} />
      {hasLevel && (
        <rect
          x={x}
          y={TOP + BODY_HEIGHT - fillHeight}
          width={width}
          height={fillHeight}
          fill={color}
          fillOpacity={0.75}
          clipPath={`url(#${clipId})`}
        />
      )}
      <path d={path} fill="none" stroke={color} strokeWidth={2} />
      {pctText && (
        <text
          x={centre}
          y={TOP + BODY_HEIGHT / 2}
          textAnchor="middle"
          fontSize={18}
          fontWeight={600}
          fill="#212121"
        >
          {pctText}
        </text>
      )}
      {doubtful && (
        // A warning sign in the tank's corner: its readings are in doubt.
        <g transform={`translate(${x + width - 26}, ${TOP + 6})`} aria-hidden>
          <path d="M10 0 L20 18 H0 Z" fill={DOUBT_COLOR} stroke="#fff" strokeWidth={1} />
          <text x={10} y={15} textAnchor="middle" fontSize={12} fontWeight={700} fill="#fff">
            !
          </text>
        </g>
      )}
      <text x={centre} y={TOP + BODY_HEIGHT + 20} textAnchor="middle" fontSize={13} fill="#212121">
        {sensor.name}
      </text>
      <text
        x={centre}
        y={TOP + BODY_HEIGHT + 40}
        textAnchor="middle"
        fontSize={13}
        fill={failed ? SENSOR_ERROR_COLOR : '#616161'}
      >
        {valueText}
      </text>
    </g>
  );
}

/**
 * The fill levels of the connected level sensors as tanks or silos, each in its sensor colour; a
 * sensor in error is drawn empty, without a value, in the error colour.
 */
export function FillLevelGraphic({
  sensors,
  doubtful,
}: {
  sensors: readonly StatusSensor[];
  /** Sensors (by number) whose readings are in doubt: marked with a warning sign. */
  doubtful?: ReadonlySet<number>;
}) {
  const { t } = useTranslation();
  const shown = connectedLevelSensors(sensors);
  if (shown.length === 0) return null;
  const width = FILL_GRAPHIC_WIDTH * fillBarWidthShare(shown.length);
  const slot = FILL_GRAPHIC_WIDTH / shown.length;
  return (
    <Box
      component="svg"
      viewBox={`0 0 ${FILL_GRAPHIC_WIDTH} ${HEIGHT}`}
      role="group"
      aria-label={t('device.status.fillLevels')}
      data-testid="fill-level-graphic"
      sx={{ width: '100%', maxWidth: FILL_GRAPHIC_WIDTH, display: 'block' }}
    >
      {shown.map((sensor, index) => (
        <Tank
          key={sensor.sequence}
          sensor={sensor}
          x={index * slot + (slot - width) / 2}
          width={width}
          doubtful={doubtful?.has(sensor.sequence) ?? false}
        />
      ))}
    </Box>
  );
}
