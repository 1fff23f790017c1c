import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RouteIcon from '@mui/icons-material/Route';
import { DayField } from '../../../components/day-field.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { today } from '../../../lib/format.ts';
import { DAY_VALUE } from '../../../lib/typed-day.ts';
import { useCandidates } from '../api/candidates.ts';
import { useDepots } from '../api/depots.ts';
import { usePlanTours } from '../api/tours.ts';
import { useTrucks } from '../api/trucks.ts';
import type { DepotView, TourProposal, TruckView } from '../api/types.ts';
import { DueTankChoice, OrderChoice } from './candidates.tsx';
import { FieldErrorsAlert } from './field-errors-alert.tsx';
import { ProposalView } from './proposal-view.tsx';
import { SavedTours } from './saved-tours.tsx';
import { ToursTabs } from './tours-tabs.tsx';

/** The address keeps the day and depot (`?day=2026-12-01&depot=3`), so that a reload stays on them. */
function usePlanningParams() {
  const [params, setParams] = useSearchParams();
  const dayParam = params.get('day');
  const day = dayParam && DAY_VALUE.test(dayParam) ? dayParam : today();
  const depotParam = Number(params.get('depot'));
  const set = (next: { day?: string; depot?: number | null }) =>
    setParams(
      (before) => {
        const after = new URLSearchParams(before);
        if (next.day !== undefined) after.set('day', next.day);
        if (next.depot !== undefined) {
          if (next.depot === null) after.delete('depot');
          else after.set('depot', String(next.depot));
        }
        return after;
      },
      { replace: true },
    );
  return { day, depotParam: Number.isInteger(depotParam) && depotParam > 0 ? depotParam : null, set };
}

/**
 * /tours (dealer): a day's tours. Choose the day and depot, the orders and due tanks to take and
 * the trucks to use; the planner proposes a tour per truck, shown on the map and as tables; each
 * is saved with its driver. The day's saved tours are listed below with their files.
 */
export default function TourPlanningPage() {
  const { t } = useTranslation();
  const { day, depotParam, set } = usePlanningParams();
  const depots = useDepots();
  const trucks = useTrucks();
  const depotId = depotParam ?? depots.data?.[0]?.id ?? null;
  const depot = depots.data?.find((candidate) => candidate.id === depotId);
  return (
    <Page title={t('tours.title')}>
      <ToursTabs />
      <Stack spacing={3}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} data-testid="tour-day-depot">
          <DayField
            label={t('tours.planning.day')}
            value={day}
            onChange={(value) => DAY_VALUE.test(value) && set({ day: value })}
            sx={{ width: { sm: 200 } }}
          />
          <TextField
            select
            label={t('tours.planning.depot')}
            value={depotId === null ? '' : String(depotId)}
            onChange={(event) => set({ depot: Number(event.target.value) })}
            sx={{ minWidth: { sm: 240 } }}
            disabled={!depots.data?.length}
            helperText={depots.data && !depots.data.length ? t('tours.planning.noDepots') : undefined}
          >
            {(depots.data ?? []).map((candidate) => (
              <MenuItem key={candidate.id} value={String(candidate.id)}>
                {candidate.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {depotId !== null && (
          <QueryContent query={trucks}>
            {(truckList) => (
              <Planning
                key={`${day}:${depotId}`}
                day={day}
                depot={depot}
                depotId={depotId}
                trucks={truckList}
              />
            )}
          </QueryContent>
        )}
        <SavedTours day={day} depotId={depotId} />
      </Stack>
    </Page>
  );
}

function toggled(set: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}

function Planning({
  day,
  depot,
  depotId,
  trucks,
}: {
  day: string;
  depot: DepotView | undefined;
  depotId: number;
  trucks: TruckView[];
}) {
  const { t } = useTranslation();
  const candidates = useCandidates(day);
  const plan = usePlanTours();
  const [proposal, setProposal] = useState<TourProposal | null>(null);
  // The depot's trucks are chosen at first, and every order; due tanks only when ticked.
  const [chosenTrucks, setChosenTrucks] = useState<ReadonlySet<number> | null>(null);
  const [chosenOrders, setChosenOrders] = useState<ReadonlySet<number> | null>(null);
  const [chosenDue, setChosenDue] = useState<ReadonlySet<number>>(new Set());
  const truckIds =
    chosenTrucks ?? new Set(trucks.filter((truck) => truck.depotId === depotId).map((truck) => truck.id));
  const orderIds = chosenOrders ?? new Set(candidates.data?.orders.map((order) => order.id));
  // The proposal names no unit: the orders' and due tanks' own (litres where unknown).
  const units = new Map<number, string>([
    ...(candidates.data?.orders.map((order) => [order.sensorId, order.unit] as const) ?? []),
    ...(candidates.data?.dueTanks.map((tank) => [tank.sensorId, tank.unit] as const) ?? []),
  ]);
  const nothing = truckIds.size === 0 || orderIds.size + chosenDue.size === 0;
  const start = () =>
    plan.mutate(
      {
        day,
        depotId,
        truckIds: [...truckIds],
        orderIds: [...orderIds],
        dueSensorIds: [...chosenDue],
      },
      { onSuccess: setProposal },
    );
  return (
    <Stack spacing={3}>
      <Box component="section" aria-labelledby="tour-trucks">
        <Typography variant="h6" component="h2" id="tour-trucks">
          {t('tours.planning.trucks')}
        </Typography>
        {trucks.length === 0 ? (
          <Typography color="text.secondary">{t('tours.planning.noTrucks')}</Typography>
        ) : (
          <FormGroup row>
            {trucks.map((truck) => (
              <FormControlLabel
                key={truck.id}
                control={
                  <Checkbox
                    checked={truckIds.has(truck.id)}
                    onChange={() => setChosenTrucks(toggled(truckIds, truck.id))}
                  />
                }
                label={truck.plate ? `${truck.name} (${truck.plate})` : truck.name}
              />
            ))}
          </FormGroup>
        )}
      </Box>
      <QueryContent query={candidates}>
        {({ orders, dueTanks }) => (
          <>
            <Box component="section" aria-labelledby="tour-orders-title">
              <Typography variant="h6" component="h2" id="tour-orders-title">
                {t('tours.orders.title')}
              </Typography>
              <OrderChoice
                orders={orders}
                chosen={orderIds}
                onToggle={(id) => setChosenOrders(toggled(orderIds, id))}
                onAll={(ids) => setChosenOrders(new Set(ids))}
              />
            </Box>
            <Box component="section" aria-labelledby="tour-due-title">
              <Typography variant="h6" component="h2" id="tour-due-title">
                {t('tours.due.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                {t('tours.due.hint')}
              </Typography>
              <DueTankChoice
                tanks={dueTanks}
                chosen={chosenDue}
                onToggle={(id) => setChosenDue(toggled(chosenDue, id))}
                onAll={(ids) => setChosenDue(new Set(ids))}
              />
            </Box>
          </>
        )}
      </QueryContent>
      <Box>
        <Button
          variant="contained"
          startIcon={<RouteIcon />}
          disabled={plan.isPending || nothing}
          onClick={start}
          data-testid="plan-tours"
        >
          {t('tours.planning.plan')}
        </Button>
        {plan.isError && <FieldErrorsAlert error={plan.error} />}
        {plan.isPending && (
          <Box sx={{ mt: 2 }} role="status">
            <Typography variant="body2">{t('tours.planning.planning')}</Typography>
            <LinearProgress aria-label={t('tours.planning.planning')} sx={{ mt: 1 }} />
          </Box>
        )}
      </Box>
      {proposal && !plan.isPending && (
        <ProposalView proposal={proposal} depot={depot} unitOf={(sensorId) => units.get(sensorId) ?? 'l'} />
      )}
    </Stack>
  );
}
