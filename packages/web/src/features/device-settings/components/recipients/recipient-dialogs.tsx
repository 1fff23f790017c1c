import { useState, type FormEvent, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useCreateContact, type Contact } from '../../../../lib/api/contacts.ts';
import {
  ContactFormFields,
  submitContact,
  useContactForm,
} from '../../../../components/forms/contact-form.tsx';
import { useSaveErrorHandler } from '../../../../components/forms/save-error.ts';
import { EditDialogLoader } from '../../../../components/dialogs/edit-dialog-loader.tsx';
import { pathId } from '../../../../lib/path-id.ts';
import { ContactPicker } from '../../../../components/pickers/contact-picker.tsx';
import {
  useCreateRecipient,
  useRecipient,
  useUpdateRecipient,
  type Recipient,
} from '../../api/recipients.ts';
import { RecipientEventsFields, submitEvents, useEventsForm } from './recipient-events-form.tsx';

const TITLE_ID = 'recipient-dialog-title';

function RecipientDialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby={TITLE_ID}>
      <DialogTitle id={TITLE_ID}>{title}</DialogTitle>
      {children}
    </Dialog>
  );
}

/** The contact a recipient's events are set for, with what it can receive. */
function ContactSummary({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      <Typography data-testid="recipient-contact">
        {t('notification-recipients.contact')}: <strong>{contact.handle}</strong>
        {[contact.cellNumber, contact.email].filter(Boolean).map((reach) => ` · ${reach}`)}
      </Typography>
      {!contact.cellNumber && (
        <Alert severity="info">{t('notification-recipients.blocked.noCellNumber')}</Alert>
      )}
      {!contact.email && <Alert severity="info">{t('notification-recipients.blocked.noEmail')}</Alert>}
    </Stack>
  );
}

type ContactMode = 'existing' | 'new';

/**
 * {tab}/new in two steps (devices-area §2, §4): choose one of the user's contacts or create one,
 * then set the events. A contact created in step 1 stays chosen when the user goes back.
 */
export function CreateRecipientDialog({
  deviceId,
  recipients,
  onClose,
}: {
  deviceId: number;
  recipients: readonly Recipient[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [contact, setContact] = useState<Contact | null>(null);
  const [step, setStep] = useState(0);
  return (
    <RecipientDialog title={t('notification-recipients.add')} onClose={onClose}>
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 3 }}>
          {(['contact', 'events'] as const).map((name) => (
            <Step key={name}>
              <StepLabel>{t(`notification-recipients.steps.${name}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
      </DialogContent>
      {step === 0 ? (
        <ContactStep
          chosen={contact}
          exclude={recipients.map((recipient) => recipient.contact.id)}
          onClose={onClose}
          onNext={(next) => {
            setContact(next);
            setStep(1);
          }}
        />
      ) : (
        <EventsStep deviceId={deviceId} contact={contact!} onBack={() => setStep(0)} onClose={onClose} />
      )}
    </RecipientDialog>
  );
}

function ContactStep({
  chosen,
  exclude,
  onNext,
  onClose,
}: {
  chosen: Contact | null;
  exclude: number[];
  onNext: (contact: Contact) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [mode, setMode] = useState<ContactMode>('existing');
  const [picked, setPicked] = useState<Contact | null>(chosen);
  const [missing, setMissing] = useState(false);
  const form = useContactForm();
  const create = useCreateContact();
  const onError = useSaveErrorHandler(form.setError);

  const next =
    mode === 'existing'
      ? (event: FormEvent) => {
          event.preventDefault();
          if (picked) onNext(picked);
          else setMissing(true);
        }
      : submitContact(form, (body) =>
          create.mutate(body, {
            onSuccess: (contact) => {
              enqueueSnackbar(t('contacts.responses.created'), { variant: 'success' });
              onNext(contact);
            },
            onError,
          }),
        );

  return (
    <form noValidate onSubmit={next}>
      <DialogContent sx={{ pt: 0 }}>
        <RadioGroup
          row
          value={mode}
          onChange={(event) => setMode(event.target.value as ContactMode)}
          aria-label={t('notification-recipients.steps.contact')}
          sx={{ mb: 2 }}
        >
          {(['existing', 'new'] as const).map((value) => (
            <FormControlLabel
              key={value}
              value={value}
              control={<Radio />}
              label={t(`notification-recipients.contactMode.${value}`)}
            />
          ))}
        </RadioGroup>
        {mode === 'existing' ? (
          <ContactPicker
            value={picked}
            onChange={(contact) => {
              setPicked(contact);
              setMissing(false);
            }}
            exclude={exclude}
            required
            autoFocus
            error={missing}
            helperText={missing ? t('validation.required') : t('notification-recipients.hints.picker')}
          />
        ) : (
          <ContactFormFields form={form} autoFocus />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {t('notification-recipients.next')}
        </Button>
      </DialogActions>
    </form>
  );
}

function EventsStep({
  deviceId,
  contact,
  onBack,
  onClose,
}: {
  deviceId: number;
  contact: Contact;
  onBack: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const form = useEventsForm();
  const create = useCreateRecipient(deviceId);
  const onError = useSaveErrorHandler(form.setError);
  // The contact is no field of this step: an error on it (taken meanwhile) shows above the events.
  const contactError = (form.formState.errors as { contactId?: { message?: string } }).contactId?.message;
  return (
    <form
      noValidate
      onSubmit={submitEvents(form, ({ events }) =>
        create.mutate(
          { contactId: contact.id, events },
          {
            onSuccess: () => {
              enqueueSnackbar(t('notification-recipients.responses.created'), { variant: 'success' });
              onClose();
            },
            onError,
          },
        ),
      )}
    >
      <DialogContent sx={{ pt: 0 }}>
        <ContactSummary contact={contact} />
        {contactError && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {contactError}
          </Alert>
        )}
        <RecipientEventsFields form={form} contact={contact} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onBack}>{t('notification-recipients.back')}</Button>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </form>
  );
}

/** {tab}/{recipientId}: the events of one recipient; one that does not load (404) closes the dialog. */
export function EditRecipientDialog({
  deviceId,
  base,
  onClose,
}: {
  deviceId: number;
  base: string;
  onClose: () => void;
}) {
  const recipientId = pathId(useParams().recipientId);
  const recipient = useRecipient(deviceId, recipientId);
  return (
    <EditDialogLoader query={recipientId === null ? null : recipient} closeTo={base}>
      {(loaded) => <EditRecipientForm deviceId={deviceId} recipient={loaded} onClose={onClose} />}
    </EditDialogLoader>
  );
}

function EditRecipientForm({
  deviceId,
  recipient,
  onClose,
}: {
  deviceId: number;
  recipient: Recipient;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const form = useEventsForm(recipient.events);
  const update = useUpdateRecipient(deviceId, recipient.id);
  const onError = useSaveErrorHandler(form.setError);
  return (
    <RecipientDialog title={t('notification-recipients.edit')} onClose={onClose}>
      <form
        noValidate
        onSubmit={submitEvents(form, (body) =>
          update.mutate(body, {
            onSuccess: () => {
              enqueueSnackbar(t('notification-recipients.responses.updated'), { variant: 'success' });
              onClose();
            },
            onError,
          }),
        )}
      >
        <DialogContent>
          <ContactSummary contact={recipient.contact} />
          <RecipientEventsFields form={form} contact={recipient.contact} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </RecipientDialog>
  );
}
