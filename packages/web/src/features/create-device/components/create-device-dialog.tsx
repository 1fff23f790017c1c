import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { UserPicker, type PickedUser } from '../../../components/pickers/user-picker.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { useAssignToUser, type CreatedDeviceView } from '../api/create-device.ts';
import { CreateDeviceForm } from './create-device-fields.tsx';

const TITLE_ID = 'create-device-title';

type Stage = 'device' | 'secret' | 'assign';

/**
 * /devices/new (admins): the device, then its secret once (net, IoT and
 * LX-IoT devices authenticate with it; only its hash is kept), then its assignment to a user.
 * Once the device exists, closing the dialog leads to it.
 */
export default function CreateDeviceDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedDeviceView | null>(null);
  const [stage, setStage] = useState<Stage>('device');
  const stages: Stage[] =
    created && !created.deviceSecret ? ['device', 'assign'] : ['device', 'secret', 'assign'];
  const close = () => void navigate(created ? `/devices/${created.device.id}` : '/devices');
  return (
    <Dialog
      open
      // The secret is shown only once: a click beside the dialog must not throw it away.
      onClose={stage === 'secret' ? undefined : close}
      fullWidth
      maxWidth="md"
      aria-labelledby={TITLE_ID}
    >
      <DialogTitle id={TITLE_ID}>{t('device-create.title')}</DialogTitle>
      <DialogContent sx={{ pb: 0 }}>
        <Stepper activeStep={stages.indexOf(stage)} sx={{ mb: 2 }}>
          {stages.map((name) => (
            <Step key={name}>
              <StepLabel>{t(`device-create.steps.${name}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
      </DialogContent>
      {stage === 'device' && (
        <CreateDeviceForm
          onCancel={close}
          onCreated={(answer) => {
            setCreated(answer);
            setStage(answer.deviceSecret ? 'secret' : 'assign');
          }}
        />
      )}
      {stage === 'secret' && created?.deviceSecret && (
        <SecretStep created={created} secret={created.deviceSecret} onNext={() => setStage('assign')} />
      )}
      {stage === 'assign' && created && <AssignStep deviceId={created.device.id} onDone={close} />}
    </Dialog>
  );
}

function SecretStep({
  created,
  secret,
  onNext,
}: {
  created: CreatedDeviceView;
  secret: string;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(secret).then(
      () => setCopied(true),
      () => {},
    );
  return (
    <>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{t('device-create.secret.onlyOnce')}</Alert>
          <Typography>
            {t('device-create.secret.ident')}: <strong>{created.device.ident}</strong>
          </Typography>
          <Box
            data-testid="device-secret"
            sx={{
              fontFamily: 'monospace',
              fontSize: '1.1rem',
              p: 2,
              bgcolor: 'action.hover',
              wordBreak: 'break-all',
            }}
          >
            {secret}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copy()}>
          {copied ? t('device-create.secret.copied') : t('device-create.secret.copy')}
        </Button>
        <Button variant="contained" onClick={onNext}>
          {t('device-create.next')}
        </Button>
      </DialogActions>
    </>
  );
}

function AssignStep({ deviceId, onDone }: { deviceId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [user, setUser] = useState<PickedUser | null>(null);
  const [missing, setMissing] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const assign = useAssignToUser(deviceId);
  const submit = () => {
    if (!user) return setMissing(true);
    assign.mutate(
      { userId: user.id },
      {
        onSuccess: () => {
          enqueueSnackbar(t('device-create.responses.assigned'), { variant: 'success' });
          onDone();
        },
        onError: (error) => {
          const message =
            error instanceof ApiError && error.status === 403
              ? t('device-create.assign.notAllowed')
              : errorText(error, t);
          setFieldError(message);
        },
      },
    );
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <DialogContent>
        <Stack spacing={2}>
          <Typography>{t('device-create.assign.text', { id: deviceId })}</Typography>
          <UserPicker
            value={user}
            onChange={(next) => {
              setUser(next);
              setMissing(false);
              setFieldError(null);
            }}
            required
            autoFocus
            error={missing || !!fieldError}
            helperText={missing ? t('validation.required') : fieldError}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onDone}>{t('device-create.assign.later')}</Button>
        <Button type="submit" variant="contained" disabled={assign.isPending}>
          {t('device-create.assign.submit')}
        </Button>
      </DialogActions>
    </form>
  );
}
