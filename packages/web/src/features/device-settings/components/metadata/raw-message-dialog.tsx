import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import DialogContentText from '@mui/material/DialogContentText';
import TextField from '@mui/material/TextField';
import { rawMessageBody, type RawMessageBody } from '@tankportal/shared/schemas/device-metadata';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { applyServerFieldErrors, sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import { useSendRawMessage } from '../../api/metadata.ts';

interface RawMessageDialogProps {
  deviceId: number;
  type: 'iot' | 'lx_iot';
  onClose: () => void;
}

/**
 * /settings/metadata/raw-message (master): a raw IoT command, or raw JSON for LX-IoT, published
 * to the device as typed. A failure shows the messages area's error notice (devices-area §8).
 */
export function RawMessageDialog({ deviceId, type, onClose }: RawMessageDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const send = useSendRawMessage();
  const { register, handleSubmit, setError, formState } = useForm<RawMessageBody>({
    defaultValues: { type, deviceId, content: '' },
    resolver: sharedSchemaResolver(rawMessageBody, t),
  });
  const contentError = formState.errors.content;
  const submit = (body: RawMessageBody) =>
    send.mutate(body, {
      onSuccess: () => {
        enqueueSnackbar(t('device-metadata.responses.messageSent'), { variant: 'success' });
        onClose();
      },
      // Other failures: the mutation's own error toast (useSendRawMessage).
      onError: (error) => void applyServerFieldErrors(error, setError, t),
    });
  return (
    <FormDialog
      title={t('device-metadata.rawMessage.title')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={send.isPending}
      dirty={formState.isDirty}
      saveLabel={t('device-metadata.rawMessage.send')}
    >
      <DialogContentText sx={{ mb: 1 }}>{t(`device-metadata.rawMessage.text.${type}`)}</DialogContentText>
      <TextField
        label={t('device-metadata.rawMessage.content')}
        multiline
        minRows={4}
        fullWidth
        autoFocus
        required
        margin="dense"
        slotProps={{ htmlInput: { spellCheck: false, sx: { fontFamily: 'monospace' } } }}
        error={!!contentError}
        helperText={
          contentError?.message &&
          (contentError.type === 'invalid' && type === 'lx_iot'
            ? t('device-metadata.rawMessage.invalidJson')
            : contentError.message)
        }
        {...register('content')}
      />
    </FormDialog>
  );
}
