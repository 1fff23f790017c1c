import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import NavigationIcon from '@mui/icons-material/Navigation';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { Loading } from '../../../components/loading.tsx';
import { VISUALLY_HIDDEN } from '../../../components/visually-hidden.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { formatDateTime, formatDay, formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { numberOrNull } from '../../../lib/number-input.ts';
import { useDriverTours } from '../api/driver-tours.ts';
import type { DriverStop, DriverTour } from '../api/types.ts';
import type { DeliveryEntry } from '../lib/delivery-queue.ts';
import { navigationLink } from '../lib/navigation-link.ts';
import { useDeliveryQueue } from '../lib/use-delivery-queue.ts';

/** The page's own service worker keeps its code for a reload without a connection (public/driver-sw.js). */
function useOfflineShell() {
  useEffect(() => {
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker
      .register('/driver-sw.js', { scope: '/driver' })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const loaded = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((url) => new URL(url).pathname.startsWith('/assets/'));
        registration.active?.postMessage({ keep: ['/driver', ...loaded] });
      })
      .catch(() => undefined);
  }, []);
}

function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/**
 * /driver (any signed-in user with tours as driver): today's tours on the phone, stops in order
 * with address, quantity and a navigation link, and "delivered" with the ticket's quantity. Works
 * without a connection once loaded: the tours are kept on the phone and a delivery entered
 * offline waits there until it is sent (delivery-queue.ts).
 */
export default function DriverPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  useOfflineShell();
  const online = useOnline();
  const tours = useDriverTours();
  const { queue, entries } = useDeliveryQueue();
  const waiting = entries.filter((entry) => entry.state === 'waiting').length;
  return (
    <>
      <AppBar position="static" component="header">
        <Toolbar sx={{ gap: 1 }}>
          <Typography variant="h6" component="div" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
            {t('driver.bar')}
          </Typography>
          <LanguageSwitch color="inherit" />
          <Button color="inherit" component={RouterLink} to="/devices">
            {t('driver.portal')}
          </Button>
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ maxWidth: 720, mx: 'auto', px: 2, py: 2 }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('driver.title')}
        </Typography>
        <Stack spacing={1} sx={{ mb: 2 }} aria-live="polite">
          {!online && (
            <Alert severity="warning" data-testid="driver-offline">
              {t('driver.offline')}
            </Alert>
          )}
          {tours.data?.offline && (
            <Alert severity="info" data-testid="driver-stored">
              {t('driver.stored', { time: formatDateTime(tours.data.loadedAt, locale) })}
            </Alert>
          )}
          {waiting > 0 && (
            <Alert severity="warning" icon={<ScheduleIcon />} data-testid="driver-waiting">
              {t('driver.waitingCount', { count: waiting })}
            </Alert>
          )}
        </Stack>
        {tours.data ? (
          tours.data.tours.length === 0 ? (
            <Typography color="text.secondary" data-testid="driver-no-tours">
              {t('driver.none', { day: formatDay(tours.data.day, locale) })}
            </Typography>
          ) : (
            <Stack spacing={3} data-testid="driver-tours">
              {tours.data.tours.map((tour) => (
                <TourSection
                  key={tour.id}
                  tour={tour}
                  entryOf={(stopId) => queue.entryOf(stopId)}
                  onDelivered={(stop, ticketQuantity) =>
                    void queue.add({
                      clientEntryId: crypto.randomUUID(),
                      stopId: stop.id,
                      ticketQuantity,
                      deliveredAt: new Date().toISOString(),
                    })
                  }
                />
              ))}
            </Stack>
          )
        ) : tours.isError ? (
          <Typography color="error">{errorText(tours.error, t)}</Typography>
        ) : (
          <Loading />
        )}
      </Box>
    </>
  );
}

function TourSection({
  tour,
  entryOf,
  onDelivered,
}: {
  tour: DriverTour;
  entryOf: (stopId: number) => DeliveryEntry | undefined;
  onDelivered: (stop: DriverStop, ticketQuantity: number) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const headingId = `driver-tour-${tour.id}`;
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h6" component="h2" id={headingId}>
        {t('driver.tour', { name: tour.truck.name, day: formatDay(tour.day, locale) })}
      </Typography>
      {tour.distanceKm !== null && (
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t('driver.tourSummary', {
            count: tour.stops.length,
            distance: formatNumber(tour.distanceKm, locale, 1),
          })}
        </Typography>
      )}
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {tour.stops.map((stop, index) => (
          <StopCard
            key={stop.id}
            number={index + 1}
            stop={stop}
            entry={entryOf(stop.id)}
            onDelivered={(quantity) => onDelivered(stop, quantity)}
          />
        ))}
      </Stack>
    </Box>
  );
}

function StopCard({
  number,
  stop,
  entry,
  onDelivered,
}: {
  number: number;
  stop: DriverStop;
  entry: DeliveryEntry | undefined;
  onDelivered: (ticketQuantity: number) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const unit = stop.unit;
  const name = stop.deviceName;
  const street = [stop.address.street, stop.address.streetNumber].filter(Boolean).join(' ');
  const place = [stop.address.postalCode, stop.address.city].filter(Boolean).join(' ');
  const serverDelivered = stop.delivered;
  const state = serverDelivered ? 'sent' : entry?.state;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const quantity = numberOrNull(text, locale);
    if (quantity === null) return setError(t('driver.quantityRequired'));
    if (Number.isNaN(quantity) || quantity < 0) return setError(t('driver.quantityInvalid'));
    setError(null);
    onDelivered(quantity);
  };
  const inputId = `ticket-${stop.id}`;
  return (
    <Paper component="li" variant="outlined" sx={{ p: 1.5 }} data-testid={`driver-stop-${stop.id}`}>
      <Stack direction="row" spacing={1.5} alignItems="flex-start">
        <Box
          aria-hidden
          sx={{
            flex: '0 0 auto',
            width: 32,
            height: 32,
            borderRadius: '50%',
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontWeight: 600,
          }}
        >
          {number}
        </Box>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            <Box component="span" sx={VISUALLY_HIDDEN}>
              {t('driver.stopNumber', { number })}{' '}
            </Box>
            {name}
          </Typography>
          {street && <Typography variant="body2">{street}</Typography>}
          {place && <Typography variant="body2">{place}</Typography>}
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('driver.quantity', { quantity: formatNumber(stop.quantity, locale), unit })}
          </Typography>
        </Box>
      </Stack>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mt: 1.5 }} alignItems="center">
        {stop.lat !== null && stop.lng !== null && (
          <Button
            variant="outlined"
            size="small"
            startIcon={<NavigationIcon />}
            href={navigationLink(stop.lat, stop.lng)}
            target="_blank"
            rel="noopener"
            aria-label={t('driver.navigateTo', { name })}
          >
            {t('driver.navigate')}
          </Button>
        )}
        {state === 'sent' && (
          <Chip
            color="success"
            icon={<CheckIcon />}
            label={t('driver.sent', {
              quantity: formatNumber(stop.ticketQuantity ?? entry?.ticketQuantity ?? 0, locale),
              unit,
            })}
            data-testid="driver-stop-sent"
          />
        )}
        {state === 'waiting' && (
          <Chip
            color="warning"
            icon={<ScheduleIcon />}
            label={t('driver.waiting', { quantity: formatNumber(entry!.ticketQuantity, locale), unit })}
            data-testid="driver-stop-waiting"
          />
        )}
      </Stack>
      {(state === undefined || state === 'refused') && (
        <Box component="form" onSubmit={submit} noValidate sx={{ mt: 1.5 }}>
          {state === 'refused' && (
            <Alert severity="error" sx={{ mb: 1 }} data-testid="driver-stop-refused">
              {t('driver.refused')}
            </Alert>
          )}
          <Stack direction="row" spacing={1} alignItems="flex-start">
            <TextField
              id={inputId}
              size="small"
              label={t('driver.ticketQuantity', { unit })}
              value={text}
              onChange={(event) => setText(event.target.value)}
              error={!!error}
              helperText={error ?? ' '}
              sx={{ flex: 1, minWidth: 0 }}
              slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off', maxLength: 12 } }}
            />
            <Button type="submit" variant="contained" data-testid="driver-delivered">
              {t('driver.delivered')}
            </Button>
          </Stack>
        </Box>
      )}
    </Paper>
  );
}
