import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { FactList, type Fact } from '../../../../../components/fact-list.tsx';
import { formatDateTime, formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import type { Locale } from '@tankportal/shared/constants';
import type { DeviceDetailView } from '../../../../../lib/api/devices.ts';

/**
 * A position as "lat; lng" in German, whose decimal comma would make "50,56000, 9,69000" ambiguous,
 * and as "lat, lng" in English (decision 030).
 */
export function formatCoordinates({ lat, lng }: { lat: number; lng: number }, locale: Locale): string {
  return `${formatNumber(lat, locale, 5)}${locale === 'de' ? ';' : ','} ${formatNumber(lng, locale, 5)}`;
}

/** The device's facts on the status page: type, ident, last report, SIM, battery, versions, location. */
export function DeviceInfoList({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const rows: Fact[] = [
    ['type', t('device.info.type'), t(`device.types.${device.type}`)],
    ['ident', t(`device.identTypes.${device.identType}`), device.ident ?? '–'],
    [
      'lastReportedAt',
      t('device.info.lastReportedAt'),
      device.lastReportedAt ? formatDateTime(device.lastReportedAt, locale) : t('device.info.never'),
    ],
  ];
  if (device.simCreditQty !== null)
    rows.push([
      'simCredit',
      t('device.info.simCredit'),
      `${formatNumber(device.simCreditQty, locale, 2)} ${device.simCreditCurrency ?? ''}`.trim(),
    ]);
  if (device.batteryCharge !== null)
    rows.push(['battery', t('device.info.battery'), `${formatNumber(device.batteryCharge, locale)} %`]);
  if (device.firmwareVersion) rows.push(['firmware', t('device.info.firmware'), device.firmwareVersion]);
  if (device.hardwareVersion) rows.push(['hardware', t('device.info.hardware'), device.hardwareVersion]);
  if (device.location)
    rows.push([
      'location',
      t('device.info.location'),
      <Link
        href={`/devices/map?highlight=${device.id}`}
        target="_blank"
        rel="noopener"
        data-testid="map-link"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        {formatCoordinates(device.location, locale)}
        <OpenInNewIcon fontSize="inherit" aria-label={t('device.info.openMap')} />
      </Link>,
    ]);
  return (
    <Box component="section" aria-labelledby="device-info">
      <Typography id="device-info" variant="h6" component="h2" gutterBottom>
        {t('device.info.title')}
      </Typography>
      <FactList rows={rows} rowTestIdPrefix="info" testId="device-info" />
    </Box>
  );
}

/** The device's comment (edited in the settings' metadata). */
export function CommentBlock({ comment }: { comment: string | null }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="device-comment" data-testid="device-comment">
      <Typography id="device-comment" variant="h6" component="h2" gutterBottom>
        {t('device.comment')}
      </Typography>
      <Typography
        variant="body2"
        color={comment ? undefined : 'text.secondary'}
        // A long word (a URL, an ident) breaks instead of widening the page.
        sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
      >
        {comment || t('device.noComment')}
      </Typography>
    </Box>
  );
}
