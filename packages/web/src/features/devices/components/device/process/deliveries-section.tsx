import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { Locale } from '@tankportal/shared/constants';
import { cardsOnPhone } from '../../../../../components/responsive-table.ts';
import { formatDateTime, formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import type { DeliveryView } from '../../../api/deliveries.ts';
import { differenceShare, isShortfall } from '../../../lib/deliveries.ts';
import { levelsText, quantityText, signedQuantityText } from './delivery-texts.ts';
import { DeliveryTicketDialog } from './delivery-ticket-dialog.tsx';

const COLUMNS = ['deliveredAt', 'sensor', 'quantity', 'levels', 'ticket', 'difference'] as const;
const NONE = '–';

/** The difference to the ticket; a shortfall beyond 1 % in the error colour, with a sign and a word. */
function DifferenceText({ delivery, locale, t }: { delivery: DeliveryView; locale: Locale; t: TFunction }) {
  if (delivery.difference === null) return <>{NONE}</>;
  const share = differenceShare(delivery);
  const text =
    signedQuantityText(delivery.difference, delivery.unit, locale) +
    (share === null
      ? ''
      : ` (${share < 0 ? '−' : share > 0 ? '+' : ''}${formatNumber(Math.abs(share) * 100, locale, 1)} %)`);
  const short = isShortfall(delivery);
  return (
    <Box
      component="span"
      data-testid="delivery-difference"
      data-shortfall={short}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        flexWrap: 'wrap',
        justifyContent: 'flex-end',
        ...(short && { color: 'error.main', fontWeight: 600 }),
      }}
    >
      {short && <WarningAmberIcon fontSize="small" aria-hidden />}
      <span>{text}</span>
      {short && <span>{t('deliveries.shortfall')}</span>}
    </Box>
  );
}

/**
 * The deliveries of the device's level sensors, newest first: when, which sensor, how
 * much (at 15 °C for heating oil), the level before and after, and against the delivery ticket.
 * Those who may edit the device enter the ticket's quantity; a table on screens, cards on a phone.
 */
export function DeliveriesSection({
  deviceId,
  deliveries,
  canEdit,
  failed,
}: {
  deviceId: number;
  deliveries: readonly DeliveryView[] | undefined;
  canEdit: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [editing, setEditing] = useState<DeliveryView | null>(null);
  const label = (column: (typeof COLUMNS)[number] | 'actions') => t(`deliveries.columns.${column}`);
  const numeric = (column: (typeof COLUMNS)[number]) => column !== 'deliveredAt' && column !== 'sensor';
  return (
    <Stack component="section" spacing={1} aria-labelledby="device-deliveries" data-testid="deliveries">
      <Typography id="device-deliveries" variant="h6" component="h2">
        {t('deliveries.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t(canEdit ? 'deliveries.hintEdit' : 'deliveries.hint')}
      </Typography>
      {failed ? (
        <Alert severity="error" data-testid="deliveries-error">
          {t('deliveries.loadFailed')}
        </Alert>
      ) : !deliveries ? null : deliveries.length === 0 ? (
        <Typography data-testid="deliveries-empty">{t('deliveries.empty')}</Typography>
      ) : (
        <Table
          size="small"
          sx={cardsOnPhone}
          aria-labelledby="device-deliveries"
          data-testid="deliveries-table"
        >
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell key={column} align={numeric(column) ? 'right' : 'left'}>
                  {label(column)}
                </TableCell>
              ))}
              {canEdit && <TableCell>{label('actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {deliveries.map((delivery) => (
              <TableRow key={delivery.id} data-testid="delivery-row" data-delivery-id={delivery.id}>
                <TableCell data-label={label('deliveredAt')} sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(delivery.deliveredAt, locale)}
                </TableCell>
                <TableCell data-label={label('sensor')}>{delivery.sensorName}</TableCell>
                <TableCell data-label={label('quantity')} align="right" data-testid="delivery-quantity">
                  <Box>
                    <Box sx={{ whiteSpace: 'nowrap' }}>
                      {quantityText(delivery.quantity, delivery.unit, locale)}
                    </Box>
                    {delivery.quantity15 !== null && (
                      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                        {t('deliveries.at15', {
                          quantity: quantityText(delivery.quantity15, delivery.unit, locale),
                        })}
                      </Typography>
                    )}
                  </Box>
                </TableCell>
                <TableCell data-label={label('levels')} align="right">
                  {levelsText(delivery, locale)}
                </TableCell>
                <TableCell
                  data-label={label('ticket')}
                  align="right"
                  sx={{ whiteSpace: 'nowrap' }}
                  data-testid="delivery-ticket"
                >
                  {delivery.ticketQuantity === null
                    ? NONE
                    : quantityText(delivery.ticketQuantity, delivery.unit, locale)}
                </TableCell>
                <TableCell data-label={label('difference')} align="right">
                  <DifferenceText delivery={delivery} locale={locale} t={t} />
                </TableCell>
                {canEdit && (
                  <TableCell data-label={label('actions')}>
                    <Button
                      size="small"
                      startIcon={<EditIcon />}
                      onClick={() => setEditing(delivery)}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {t(
                        delivery.ticketQuantity === null
                          ? 'deliveries.enterTicket'
                          : 'deliveries.changeTicket',
                      )}
                    </Button>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editing && (
        <DeliveryTicketDialog deviceId={deviceId} delivery={editing} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
}
