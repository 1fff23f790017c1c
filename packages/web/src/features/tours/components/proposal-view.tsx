import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Loading } from '../../../components/loading.tsx';
import { UserPicker, type PickedUser } from '../../../components/pickers/user-picker.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { saveBodyOf, useSaveTour } from '../api/tours.ts';
import type { DepotView, ProposedTour, TourProposal } from '../api/types.ts';
import { tourColour } from '../lib/tour-colours.ts';
import { FieldErrorsAlert } from './field-errors-alert.tsx';
import { StopsTable } from './stops-table.tsx';

// Leaflet is big: the map loads with the first proposal, not with the page.
const TourMap = lazy(() => import('./tour-map.tsx'));

/**
 * The planner's proposal: the map, a table per tour with its driver and save button, and the
 * stops it could not plan with the reason. A saved tour leaves the proposal.
 */
export function ProposalView({
  proposal,
  depot,
  unitOf,
}: {
  proposal: TourProposal;
  depot: DepotView | undefined;
  /** The unit of a stop's tank: the proposal names none. */
  unitOf: (sensorId: number) => string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [saved, setSaved] = useState<ReadonlySet<number>>(new Set());
  const open = proposal.tours.filter((tour) => !saved.has(tour.truckId) && tour.stops.length > 0);
  return (
    <Stack spacing={2} data-testid="tour-proposal">
      <Typography variant="h5" component="h2">
        {t('tours.proposal.title')}
      </Typography>
      {open.length > 0 && (
        <Box sx={{ height: { xs: 320, md: 440 } }} data-testid="tour-map">
          <Suspense fallback={<Loading />}>
            <TourMap
              label={t('tours.proposal.map')}
              depot={depot ?? null}
              tours={open.map((tour) => ({
                key: tour.truckId,
                stops: tour.stops.map((stop, index) => ({
                  lat: stop.lat,
                  lng: stop.lng,
                  label: String(index + 1),
                })),
              }))}
            />
          </Suspense>
        </Box>
      )}
      <Typography variant="body2" color="text.secondary" data-testid="tour-distances">
        {t(`tours.proposal.distances.${proposal.distanceSource}`, {
          distance: formatNumber(proposal.distanceKm, locale, 1),
        })}
      </Typography>
      {proposal.tours.length > 0 && open.length === 0 && (
        <Typography color="text.secondary">{t('tours.proposal.allSaved')}</Typography>
      )}
      {proposal.tours.length === 0 && (
        <Typography color="text.secondary">{t('tours.proposal.none')}</Typography>
      )}
      {open.map((tour) => (
        <ProposedTourCard
          key={tour.truckId}
          proposal={proposal}
          tour={tour}
          colour={tourColour(open.indexOf(tour))}
          name={tour.truckName}
          unitOf={unitOf}
          onSaved={() => setSaved((before) => new Set([...before, tour.truckId]))}
        />
      ))}
      {proposal.unplanned.length > 0 && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="tour-unplanned">
          <Typography variant="h6" component="h3" gutterBottom>
            {t('tours.proposal.unplanned', { count: proposal.unplanned.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {proposal.unplanned.map((stop) => (
              <li key={`${stop.sensorId}-${stop.orderId ?? ''}`}>
                {stop.deviceName} · {formatNumber(stop.quantity, locale)} l:{' '}
                {t(`tours.reasons.${stop.reason}`)}
              </li>
            ))}
          </Box>
        </Paper>
      )}
    </Stack>
  );
}

function ProposedTourCard({
  proposal,
  tour,
  colour,
  name,
  unitOf,
  onSaved,
}: {
  proposal: TourProposal;
  tour: ProposedTour;
  colour: string;
  name: string;
  unitOf: (sensorId: number) => string;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const [driver, setDriver] = useState<PickedUser | null>(null);
  const save = useSaveTour();
  const total = tour.stops.reduce((sum, stop) => sum + stop.quantity, 0);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, borderLeft: 6, borderLeftColor: colour }}
      data-testid={`proposed-tour-${tour.truckId}`}
    >
      <Typography variant="h6" component="h3">
        {name}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {t('tours.proposal.summary', {
          count: tour.stops.length,
          quantity: formatNumber(total, locale),
          distance: formatNumber(tour.distanceKm, locale, 1),
        })}
      </Typography>
      <StopsTable
        stops={tour.stops.map((stop) => ({ ...stop, unit: unitOf(stop.sensorId) }))}
        label={t('tours.proposal.stopsOf', { name })}
        testId="proposed-stops"
      />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        alignItems={{ xs: 'stretch', sm: 'flex-start' }}
        sx={{ mt: 2 }}
      >
        <Box sx={{ flex: 1, maxWidth: { sm: 360 } }}>
          <UserPicker value={driver} onChange={setDriver} label={t('tours.proposal.driver')} />
        </Box>
        <Button
          variant="contained"
          disabled={save.isPending}
          data-testid="save-tour"
          onClick={() =>
            save.mutate(saveBodyOf(proposal, tour, driver?.id ?? null), {
              onSuccess: () => {
                enqueueSnackbar(t('tours.proposal.saved', { name }), { variant: 'success' });
                onSaved();
              },
            })
          }
        >
          {t('tours.proposal.save')}
        </Button>
      </Stack>
      {save.isError && <FieldErrorsAlert error={save.error} />}
    </Paper>
  );
}
