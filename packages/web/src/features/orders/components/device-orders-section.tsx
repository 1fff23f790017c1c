import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { useCurrentUser, useHasRole } from '../../../lib/session.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useDeviceOrders } from '../api/orders.ts';
import { OrderActions, OrderFacts, OrderState, orderWindow } from './order-actions.tsx';
import { OrderFormDialog, tankLabel, type OrderTank } from './order-form-dialog.tsx';

/** At most this many orders on the status page: the newest; the dealer's page has them all. */
const SHOWN = 5;

/**
 * The device's orders on its status page: "Order" for whoever may view the device (a demo account
 * only looks), the form, and the newest orders with their state in words and what may be done with
 * them. A dealer (an admin above the owner) may enter the delivery date at once.
 */
export default function DeviceOrdersSection({
  device,
}: {
  device: { id: number; user: { id: number }; sensors: (OrderTank & { type: string })[] };
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const mayOrder = useHasRole('ROLE_APP_USER');
  const admin = useHasRole('ROLE_ADMIN');
  const user = useCurrentUser().data;
  const tanks = device.sensors.filter((sensor) => sensor.type === 'probe');
  const { data: orders } = useDeviceOrders(device.id);
  const [ordering, setOrdering] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  if (tanks.length === 0) return null;
  // The web offers the delivery date to admins other than the owner; the server decides.
  const dealer = admin && user?.id !== device.user.id;
  return (
    <Box component="section" aria-labelledby="device-orders-title" data-testid="device-orders">
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography variant="h6" component="h2" id="device-orders-title">
          {t('orders.title')}
        </Typography>
        {mayOrder && (
          <Button
            variant="contained"
            startIcon={<LocalShippingIcon />}
            onClick={() => {
              setNotice(null);
              setOrdering(true);
            }}
            data-testid="order-button"
          >
            {t('orders.order')}
          </Button>
        )}
      </Stack>
      {notice && (
        <Alert severity="success" sx={{ mb: 1 }} onClose={() => setNotice(null)} data-testid="order-saved">
          {notice}
        </Alert>
      )}
      {orders && orders.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('orders.none')}
        </Typography>
      )}
      <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {orders?.slice(0, SHOWN).map((order) => (
          <Box
            component="li"
            key={order.id}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}
            data-testid="device-order"
          >
            <Stack spacing={0.5}>
              <Stack direction="row" spacing={1} justifyContent="space-between" alignItems="center">
                <Typography variant="subtitle2" component="p">
                  {t('orders.number', { id: order.id })}
                </Typography>
                <OrderState order={order} />
              </Stack>
              <Typography variant="body2">
                {tankLabel({ sequence: order.sequence, name: order.sensorName })}:{' '}
                {formatNumber(order.quantity, locale)} {order.unit}, {orderWindow(order, locale)}
              </Typography>
              <OrderFacts order={order} />
              <OrderActions order={order} onDone={setNotice} />
            </Stack>
          </Box>
        ))}
      </Stack>
      {ordering && (
        <OrderFormDialog
          deviceId={device.id}
          tanks={tanks}
          dealer={dealer}
          onClose={() => setOrdering(false)}
          onSaved={() => {
            setOrdering(false);
            setNotice(t(dealer ? 'orders.savedDealer' : 'orders.saved'));
          }}
        />
      )}
    </Box>
  );
}
