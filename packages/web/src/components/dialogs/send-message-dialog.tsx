import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import DialogContentText from '@mui/material/DialogContentText';
import TextField from '@mui/material/TextField';
import {
  RAW_SMS_MAX_LENGTH,
  rawMessageBody,
  type RawMessageBody,
} from '@tankportal/shared/schemas/device-metadata';
import { applyServerFieldErrors, sharedSchemaResolver } from '../../lib/field-errors.ts';
import { useSendMessage } from '../../lib/api/messages.ts';
import { MessageReport } from '../message-report.tsx';
import { FormDialog } from './form-dialog.tsx';

interface SendMessageDialogProps {
  deviceId: number;
  type: RawMessageBody['type'];
  onClose: () => void;
}

/**
 * A message typed by an operator, sent to one device: an SMS through its outbound gateway
 * (/devices/{id}/messages/send, at most 160 characters), or (master) a raw IoT command or raw JSON
 * for LX-IoT (/settings/metadata/raw-message), published as typed. A request that fails shows the
 * messages area's error notice; a message the channel did not take (no gateway, broker down) is
 * logged as not sent, and the dialog stays open saying why, so the user can try again or cancel.
 */
export function SendMessageDialog({ deviceId, type, onClose }: SendMessageDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const send = useSendMessage();
  /** The report of the last try that the channel refused. */
  const [notSent, setNotSent] = useState<{ report: string | null } | null>(null);
  const { register, handleSubmit, setError, formState, control } = useForm<RawMessageBody>({
    defaultValues: { type, deviceId, content: '' },
    resolver: sharedSchemaResolver(rawMessageBody, t),
  });
  const contentError = formState.errors.content;
  const length = useWatch({ control, name: 'content' }).length;
  const submit = (body: RawMessageBody) => {
    setNotSent(null);
    send.mutate(body, {
      onSuccess: (message) => {
        if (message.status === 'sending_failed') {
          setNotSent({ report: message.report });
          return;
        }
        enqueueSnackbar(t('device-metadata.responses.messageSent'), { variant: 'success' });
        onClose();
      },
      // Other failures: the mutation's own error toast (useSendMessage).
      onError: (error) => void applyServerFieldErrors(error, setError, t),
    });
  };
  return (
    <FormDialog
      title={t(type === 'sms' ? 'device-metadata.rawMessage.smsTitle' : 'device-metadata.rawMessage.title')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={send.isPending}
      dirty={formState.isDirty}
      saveLabel={t('device-metadata.rawMessage.send')}
    >
      <DialogContentText sx={{ mb: 1 }}>{t(`device-metadata.rawMessage.text.${type}`)}</DialogContentText>
      {notSent && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="message-not-sent">
          <AlertTitle>{t('device-metadata.rawMessage.notSent')}</AlertTitle>
          <MessageReport report={notSent.report} />
        </Alert>
      )}
      <TextField
        label={t('device-metadata.rawMessage.content')}
        multiline
        minRows={4}
        fullWidth
        autoFocus
        required
        margin="dense"
        slotProps={{
          htmlInput: type === 'sms' ? {} : { spellCheck: false, sx: { fontFamily: 'monospace' } },
        }}
        error={!!contentError}
        helperText={
          (contentError?.message &&
            (contentError.type === 'invalid' && type === 'lx_iot'
              ? t('device-metadata.rawMessage.invalidJson')
              : contentError.message)) ||
          (type === 'sms' && t('device-metadata.rawMessage.characters', { length, max: RAW_SMS_MAX_LENGTH }))
        }
        {...register('content')}
      />
    </FormDialog>
  );
}
