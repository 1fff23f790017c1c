import { useNavigate, useParams } from 'react-router';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { FactList, type Fact } from '../../../components/fact-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { pathId } from '../../../lib/path-id.ts';
import { RELEASE_REFUSALS, useMessage, useReleaseMessage, type MessageView } from '../api/messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useHasRole } from '../../../lib/session.ts';
import { isAddressType } from '../lib/address-types.ts';
import { readableContent } from '../lib/preview.ts';
import { MessageReport } from '../../../components/message-report.tsx';

/**
 * `{base}/{messageId}`: one message with every field; previous and next walk the loaded, filtered
 * list (disabled at its ends). A message not in the list (a link) is loaded on its own, in a
 * device's pages only one of that device; one that does not load closes the dialog.
 */
export function MessageDetailDialog({
  items,
  base,
  deviceId,
  onClose,
}: {
  items: MessageView[];
  base: string;
  /** The device whose pages these are: another device's message is not shown here. */
  deviceId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const messageId = pathId(useParams().messageId);
  const index = items.findIndex((message) => message.id === messageId);
  const loaded = useMessage(index === -1 ? messageId : null, deviceId);
  if (index !== -1)
    return <Detail message={items[index]} items={items} index={index} base={base} onClose={onClose} />;
  return (
    <EditDialogLoader
      query={messageId === null ? null : loaded}
      closeTo={base}
      notFoundText={t(deviceId === undefined ? 'messages.notFound' : 'messages.notFoundInDevice')}
    >
      {(message) => <Detail message={message} items={[]} index={-1} base={base} onClose={onClose} />}
    </EditDialogLoader>
  );
}

function Detail({
  message,
  items,
  index,
  base,
  onClose,
}: {
  message: MessageView;
  items: MessageView[];
  index: number;
  base: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const open = (at: number) => void navigate(`${base}/${items[at].id}`, { replace: true });
  const isMaster = useHasRole('ROLE_MASTER');
  const releasable =
    isMaster &&
    message.type === 'sms' &&
    message.direction === 'in' &&
    (message.status === 'parsing_failed' || message.status === 'unknown');
  const time = (value: string | null) => (value ? formatDateTime(value, locale) : '–');
  // The kind of address in words ("Rufnummer"), not the column's code.
  const address = (ident: string | null, type: string | null) =>
    [ident, type && (isAddressType(type) ? t(`messages.addressTypes.${type}`) : type)]
      .filter(Boolean)
      .join(' · ') || '–';
  const facts: Fact[] = [
    ['createdAt', t('messages.fields.createdAt'), time(message.createdAt)],
    ['receivedAt', t('messages.fields.receivedAt'), time(message.receivedAt)],
    ['sentAt', t('messages.fields.sentAt'), time(message.sentAt)],
    [
      'device',
      t('messages.columns.device'),
      message.device ? `${message.device.id} – ${message.device.name}` : t('messages.noDevice'),
    ],
    ['type', t('messages.fields.type'), t(`messages.types.${message.type}`)],
    ['direction', t('messages.fields.direction'), t(`messages.directions.${message.direction}`)],
    ['mode', t('messages.fields.mode'), t(`messages.modes.${message.mode}`)],
    ['status', t('messages.fields.status'), t(`messages.statuses.${message.status}`)],
    ['indication', t('messages.columns.indication'), message.indication ?? '–'],
    ['from', t('messages.fields.from_'), address(message.from, message.fromType)],
    ['to', t('messages.fields.to_'), address(message.to, message.toType)],
    ['username', t('messages.fields.username'), message.username ?? '–'],
    ['report', t('messages.fields.report'), <MessageReport report={message.report} />],
  ];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="message-title">
      <DialogTitle id="message-title">{t('messages.detailTitle', { id: message.id })}</DialogTitle>
      <DialogContent dividers>
        <FactList rows={facts} rowTestIdPrefix="message" testId="message-facts" />
        <Box
          component="pre"
          data-testid="message-content"
          sx={{
            mt: 2,
            p: 1.5,
            bgcolor: 'action.hover',
            borderRadius: 1,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            fontSize: '0.875rem',
          }}
        >
          {readableContent(message.content) || t('messages.placeholders.empty')}
        </Box>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        <Button startIcon={<ChevronLeftIcon />} disabled={index <= 0} onClick={() => open(index - 1)}>
          {t('messages.previousMessage')}
        </Button>
        <Button
          endIcon={<ChevronRightIcon />}
          disabled={index === -1 || index >= items.length - 1}
          onClick={() => open(index + 1)}
        >
          {t('messages.nextMessage')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {releasable && <ReleaseButton messageId={message.id} />}
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Processes the SMS again (master); success and failure as toasts, the failure with its reason. */
function ReleaseButton({ messageId }: { messageId: number }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const release = useReleaseMessage();
  const reasonOf = (error: unknown) => {
    const reason = error instanceof ApiError ? error.body?.fieldErrors?.[0]?.args?.reason : undefined;
    return RELEASE_REFUSALS.find((known) => known === reason);
  };
  return (
    <Button
      variant="outlined"
      loading={release.isPending}
      onClick={() =>
        release.mutate(messageId, {
          onSuccess: () => enqueueSnackbar(t('messages.responses.released'), { variant: 'success' }),
          onError: (error) => {
            const reason = reasonOf(error);
            enqueueSnackbar(
              [t('messages.responses.releaseFailed'), reason && t(`messages.releaseRefusals.${reason}`)]
                .filter(Boolean)
                .join(' '),
              { variant: 'error' },
            );
          },
        })
      }
    >
      {t('messages.release')}
    </Button>
  );
}
