import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { Loading } from '../../../components/loading.tsx';
import { useMapTiles } from '../../../lib/map-tiles.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { useMapDevices, type MapDevice } from '../api/map-devices.ts';
import { highlightId } from '../lib/map.ts';
import { DeviceMap } from './device-map.tsx';
import { popupContent } from './popup-content.ts';

/** /devices/map (`?highlight={id}`): every located device on a clustered map. */
export default function DeviceMapDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const highlight = highlightId(searchParams.get('highlight'));
  const devices = useMapDevices();
  const tiles = useMapTiles();
  const close = () => void navigate('/devices');
  const popup = useCallback(
    (device: MapDevice) => popupContent(device, t, (id) => void navigate(`/devices/${id}`)),
    [t, navigate],
  );

  return (
    <Dialog open onClose={close} fullWidth maxWidth="xl" aria-labelledby="device-map-title">
      <DialogTitle id="device-map-title" sx={{ pr: 6 }}>
        {t('devices.map.title')}
        <IconButton
          aria-label={t('common.close')}
          onClick={close}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent sx={{ p: 0 }}>
        <Box sx={{ height: '75vh' }}>
          {devices.data && tiles.ready ? (
            devices.data.length ? (
              <DeviceMap
                devices={devices.data}
                highlight={highlight}
                tileUrl={tiles.url}
                attribution={tiles.attribution}
                popup={popup}
              />
            ) : (
              <Typography sx={{ p: 3 }}>{t('devices.map.empty')}</Typography>
            )
          ) : devices.isError ? (
            <Typography sx={{ p: 3 }} color="error">
              {errorText(devices.error, t)}
            </Typography>
          ) : (
            <Loading />
          )}
        </Box>
      </DialogContent>
    </Dialog>
  );
}
