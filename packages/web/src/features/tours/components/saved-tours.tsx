import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { TOUR_EXPORTS, tourExportUrl, useDeleteTour, useTourDetail, useTours } from '../api/tours.ts';
import type { TourView } from '../api/types.ts';
import { StopsTable } from './stops-table.tsx';

/** The tours saved for the day and depot: their stops, files and, while planned, delete. */
export function SavedTours({ day, depotId }: { day: string; depotId: number | null }) {
  const { t } = useTranslation();
  const tours = useTours(day, depotId);
  const [deleting, setDeleting] = useState<TourView | null>(null);
  const remove = useDeleteTour();
  return (
    <Stack spacing={1} data-testid="saved-tours">
      <Typography variant="h5" component="h2">
        {t('tours.saved.title')}
      </Typography>
      <QueryContent query={tours}>
        {(list) =>
          list.length === 0 ? (
            <Typography color="text.secondary" data-testid="saved-tours-empty">
              {t('tours.saved.empty')}
            </Typography>
          ) : (
            <div>
              {list.map((tour) => (
                <SavedTour key={tour.id} tour={tour} onDelete={() => setDeleting(tour)} />
              ))}
            </div>
          )
        }
      </QueryContent>
      {deleting && (
        <DeleteConfirmDialog
          label={t('tours.saved.delete')}
          text={t('tours.saved.deleteText', { name: deleting.truck.name })}
          remove={remove}
          target={deleting.id}
          deletedText={t('tours.saved.deleted')}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}

function SavedTour({ tour, onDelete }: { tour: TourView; onDelete: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const detail = useTourDetail(tour.id, open);
  const name = tour.truck.plate ? `${tour.truck.name} (${tour.truck.plate})` : tour.truck.name;
  return (
    <Accordion
      disableGutters
      expanded={open}
      onChange={(_event, expanded) => setOpen(expanded)}
      data-testid={`saved-tour-${tour.id}`}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
          <Typography component="span" sx={{ fontWeight: 500 }}>
            {name}
          </Typography>
          <Chip size="small" label={t(`tours.states.${tour.state}`)} />
          <Typography component="span" variant="body2" color="text.secondary">
            {t('tours.saved.summary', {
              driver: tour.driver?.username ?? t('tours.saved.noDriver'),
              count: tour.stopCount,
              delivered: tour.deliveredCount,
              distance: tour.distanceKm === null ? '–' : formatNumber(tour.distanceKm, locale, 1),
            })}
          </Typography>
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        {open && (
          <QueryContent query={detail}>
            {(loaded) => <StopsTable stops={loaded.stops} label={t('tours.proposal.stopsOf', { name })} />}
          </QueryContent>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 2 }} flexWrap="wrap" useFlexGap>
          {TOUR_EXPORTS.map((format) => (
            <Button
              key={format}
              size="small"
              startIcon={<DownloadIcon />}
              href={tourExportUrl(tour.id, format, locale)}
              download
              data-testid={`tour-export-${format}`}
            >
              {t(`tours.saved.export.${format}`)}
            </Button>
          ))}
          {tour.state === 'planned' && (
            <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
              {t('tours.saved.delete')}
            </Button>
          )}
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
