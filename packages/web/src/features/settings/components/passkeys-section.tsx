import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PASSKEY_NAME_MAX_LENGTH, type PasskeySummary } from '@tankportal/shared/schemas/passkeys';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys.ts';
import { PasswordConfirmDialog } from './password-confirm-dialog.tsx';

/**
 * The own passkeys on the two-factor tab (decision 067): each is a second factor as the app's code
 * is. Adding one is offered only where the browser offers WebAuthn; the list and removal always.
 */
export function PasskeysSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const passkeys = usePasskeys();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="passkeys">
      <Typography variant="h6" component="h2" gutterBottom>
        {t('second-factor.passkeysTitle')}
      </Typography>
      <Typography gutterBottom>{t('second-factor.passkeysIntro')}</Typography>
      <QueryContent query={passkeys}>
        {(list) => (
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            {list.length > 0 && (
              <TableContainer>
                <Table size="small" sx={cardsOnPhone}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('second-factor.passkeyName')}</TableCell>
                      <TableCell>{t('second-factor.passkeyCreatedAt')}</TableCell>
                      <TableCell>{t('second-factor.passkeyLastUsedAt')}</TableCell>
                      <TableCell align="right">{t('second-factor.passkeyActions')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {list.map((passkey) => (
                      <TableRow key={passkey.id}>
                        <TableCell data-label={t('second-factor.passkeyName')}>{passkey.name}</TableCell>
                        <TableCell data-label={t('second-factor.passkeyCreatedAt')}>
                          {formatDateTime(passkey.createdAt, locale)}
                        </TableCell>
                        <TableCell data-label={t('second-factor.passkeyLastUsedAt')}>
                          {passkey.lastUsedAt
                            ? formatDateTime(passkey.lastUsedAt, locale)
                            : t('second-factor.passkeyNeverUsed')}
                        </TableCell>
                        <TableCell data-label={t('second-factor.passkeyActions')} align="right">
                          <Button
                            size="small"
                            color="error"
                            onClick={() => setRemoving(passkey)}
                            aria-label={t('second-factor.removePasskeyLabel', { name: passkey.name })}
                          >
                            {t('second-factor.removePasskey')}
                          </Button>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
            {browserSupportsWebAuthn() ? (
              <Button variant="outlined" onClick={() => setAdding(true)}>
                {t('second-factor.addPasskey')}
              </Button>
            ) : (
              <Typography color="text.secondary">{t('second-factor.passkeysUnsupported')}</Typography>
            )}
          </Stack>
        )}
      </QueryContent>
      {adding && <AddPasskeyDialog onClose={() => setAdding(false)} />}
      {removing && <RemovePasskeyDialog passkey={removing} onClose={() => setRemoving(null)} />}
    </Paper>
  );
}

/** A name for the passkey, then the browser asks the person to confirm with the device. */
function AddPasskeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddPasskey();
  const { register, handleSubmit, formState } = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const submit = ({ name }: { name: string }) =>
    add.mutate(name.trim(), {
      onSuccess: () => {
        enqueueSnackbar(t('second-factor.passkeyAdded'), { variant: 'success' });
        onClose();
      },
    });
  return (
    <FormDialog
      title={t('second-factor.addPasskey')}
      maxWidth="xs"
      onSubmit={handleSubmit(submit)}
      onClose={onClose}
      saveLabel={t('second-factor.addPasskey')}
      saveDisabled={add.isPending}
      testId="add-passkey"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography>{t('second-factor.addPasskeyText')}</Typography>
        {add.isError && <Alert severity="error">{t('second-factor.passkeyNotAdded')}</Alert>}
        <TextField
          label={t('second-factor.passkeyName')}
          helperText={formState.errors.name?.message ?? t('second-factor.passkeyNameHint')}
          required
          autoFocus
          error={!!formState.errors.name}
          slotProps={{ htmlInput: { maxLength: PASSKEY_NAME_MAX_LENGTH } }}
          {...register('name', {
            validate: (value) =>
              value.trim() !== '' || fieldErrorText(t, { path: 'name', code: 'required', args: {} }),
          })}
        />
      </Stack>
    </FormDialog>
  );
}

function RemovePasskeyDialog({ passkey, onClose }: { passkey: PasskeySummary; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const remove = useRemovePasskey();
  return (
    <PasswordConfirmDialog
      title={t('second-factor.removePasskey')}
      text={t('second-factor.removePasskeyText', { name: passkey.name })}
      pending={remove.isPending}
      testId="remove-passkey"
      onClose={onClose}
      onConfirm={(password, onError) =>
        remove.mutate(
          { id: passkey.id, password },
          {
            onSuccess: () => {
              enqueueSnackbar(t('second-factor.passkeyRemoved'), { variant: 'success' });
              onClose();
            },
            onError,
          },
        )
      }
    />
  );
}
