import { useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { DeleteConfirmDialog } from '../../../../components/dialogs/delete-confirm-dialog.tsx';
import { QueryContent } from '../../../../components/query-content.tsx';
import { EditDeleteActions } from '../../../../components/row-actions.tsx';
import { cardsOnPhone } from '../../../../components/responsive-table.ts';
import { hasDevicePermission, type DeviceDetailView } from '../../../../lib/api/devices.ts';
import {
  useDeleteRecipient,
  useRecipients,
  type Recipient,
  type RecipientEvent,
} from '../../api/recipients.ts';
import { devicePath } from '../../../../lib/device-path.ts';
import { CreateRecipientDialog, EditRecipientDialog } from './recipient-dialogs.tsx';
import { splitSeconds } from './notify-once-in.ts';

/** "Alarm: SMS, E-Mail (at most every 12 hours)" for an event that is sent. */
function eventText(t: TFunction, event: RecipientEvent): string {
  const channels = event.channels
    .map((channel) => t(`notification-recipients.channels.${channel}`))
    .join(', ');
  const text = `${t(`notification-recipients.events.${event.name}`)}: ${channels}`;
  if (!event.notifyOnceIn) return text;
  const { value, unit } = splitSeconds(event.notifyOnceIn);
  return `${text} (${t('notification-recipients.atMostEvery', {
    interval: t(`notification-recipients.unitCounts.${unit}`, { count: value }),
  })})`;
}

/**
 * /devices/{id}/settings/notification-recipients: who hears of the device's
 * events, and how. Adding, editing and deleting need EDIT; the dialogs are sub-routes of the tab.
 */
export default function RecipientsTab({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = devicePath(device.id, 'settings/notification-recipients');
  const canEdit = hasDevicePermission(device, 'EDIT');
  const recipients = useRecipients(device.id);
  const [deleting, setDeleting] = useState<Recipient | null>(null);
  const close = () => void navigate(base);
  const editOnly = (element: ReactNode) => (canEdit ? element : <Navigate to={base} replace />);

  return (
    <Stack spacing={1} data-testid="recipients-tab">
      {canEdit && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to={`${base}/new`} variant="contained" startIcon={<AddIcon />}>
            {t('notification-recipients.add')}
          </Button>
        </Stack>
      )}
      <QueryContent query={recipients}>
        {(data) => <RecipientTable recipients={data} base={base} canEdit={canEdit} onDelete={setDeleting} />}
      </QueryContent>
      <Routes>
        <Route index element={null} />
        <Route
          path="new"
          element={editOnly(
            recipients.data ? (
              <CreateRecipientDialog deviceId={device.id} recipients={recipients.data} onClose={close} />
            ) : null,
          )}
        />
        <Route
          path=":recipientId"
          element={editOnly(<EditRecipientDialog deviceId={device.id} base={base} onClose={close} />)}
        />
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
      {deleting && (
        <DeleteRecipientDialog deviceId={device.id} recipient={deleting} onClose={() => setDeleting(null)} />
      )}
    </Stack>
  );
}

function RecipientTable({
  recipients,
  base,
  canEdit,
  onDelete,
}: {
  recipients: Recipient[];
  base: string;
  canEdit: boolean;
  onDelete: (recipient: Recipient) => void;
}) {
  const { t } = useTranslation();
  if (!recipients.length)
    return <Typography color="text.secondary">{t('notification-recipients.empty')}</Typography>;
  return (
    <TableContainer>
      {/* A card per recipient on a phone: the actions column stays reachable. */}
      <Table size="small" aria-label={t('device-settings.tabs.notification-recipients')} sx={cardsOnPhone}>
        <TableHead>
          <TableRow>
            <TableCell>{t('notification-recipients.columns.contact')}</TableCell>
            <TableCell>{t('notification-recipients.columns.events')}</TableCell>
            {canEdit && <TableCell align="right">{t('notification-recipients.columns.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {recipients.map((recipient) => {
            const sent = recipient.events.filter((event) => event.channels.length > 0);
            return (
              <TableRow key={recipient.id} data-testid={`recipient-${recipient.id}`}>
                <TableCell data-label={t('notification-recipients.columns.contact')}>
                  <Box>
                    <Typography variant="body2">{recipient.contact.handle}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {[recipient.contact.cellNumber, recipient.contact.email].filter(Boolean).join(' · ')}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell data-label={t('notification-recipients.columns.events')}>
                  {sent.length ? (
                    // One block beside its label when the row is a card.
                    <Box>
                      {sent.map((event) => (
                        <Typography
                          key={event.name}
                          variant="body2"
                          data-testid={`recipient-event-${event.name}`}
                        >
                          {eventText(t, event)}
                        </Typography>
                      ))}
                    </Box>
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      {t('notification-recipients.noEvents')}
                    </Typography>
                  )}
                </TableCell>
                {canEdit && (
                  <TableCell
                    align="right"
                    sx={{ whiteSpace: 'nowrap' }}
                    data-label={t('notification-recipients.columns.actions')}
                  >
                    <EditDeleteActions
                      editTo={`${base}/${recipient.id}`}
                      onDelete={() => onDelete(recipient)}
                      editLabel={t('notification-recipients.edit')}
                      deleteLabel={t('notification-recipients.delete')}
                      name={recipient.contact.handle}
                    />
                  </TableCell>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function DeleteRecipientDialog({
  deviceId,
  recipient,
  onClose,
}: {
  deviceId: number;
  recipient: Recipient;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteRecipient(deviceId);
  return (
    <DeleteConfirmDialog
      label={t('notification-recipients.delete')}
      text={t('notification-recipients.deleteQuestion', { handle: recipient.contact.handle })}
      remove={remove}
      target={recipient.id}
      deletedText={t('notification-recipients.responses.deleted')}
      onClose={onClose}
    />
  );
}
