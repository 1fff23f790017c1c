import { useQuery } from '@tanstack/react-query';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../../lib/api-client.ts';
import { Page } from '../../../components/page.tsx';

/** The device list; until the devices API answers, the count it reports or the empty state. */
export default function DevicesPage() {
  const { t } = useTranslation();
  const devices = useQuery({
    queryKey: ['devices', 'list'],
    queryFn: () =>
      api<unknown[]>('GET', '/v2/devices').catch((error) =>
        error instanceof ApiError && error.status === 404 ? [] : Promise.reject(error),
      ),
  });
  const count = devices.data?.length ?? 0;
  return (
    <Page title={t('devices.title')}>
      <Typography data-testid="devices-summary">
        {count === 0 ? t('devices.empty') : t('devices.count', { count })}
      </Typography>
    </Page>
  );
}
