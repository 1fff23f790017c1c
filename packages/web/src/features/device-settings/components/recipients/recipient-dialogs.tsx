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
import { contactHandle, type ContactBody } from '@tankportal/shared/schemas/contacts';
import type { Contact } from '../../../../lib/api/contacts.ts';
import {
  ContactFormFields,
  submitContact,
  useContactForm,
} from '../../../../components/forms/contact-form.tsx';
import { useSaveErrorHandler } from '../../../../components/forms/save-error.ts';
import { EditDialogLoader } from '../../../../components/dialogs/edit-dialog-loader.tsx';
import { pathId } from '../../../../lib/path-id.ts';
import { reachOf } from '../../../../components/pickers/contact-picker.tsx';
import { SearchPicker } from '../../../../components/pickers/search-picker.tsx';
import {
  useCreateRecipient,
  useRecipient,
  useRecipientContacts,
  useUpdateRecipient,
  type OfferedContact,
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
function ContactSummary({ contact, owner }: { contact: Contact; owner?: OfferedContact['owner'] }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      <Typography data-testid="recipient-contact">
        {t('notification-recipients.contact')}: <strong>{contact.handle}</strong>
        {[contact.cellNumber, contact.email].filter(Boolean).map((reach) => ` · ${reach}`)}
        {owner && !owner.own && ` (${t('notification-recipients.ownerBook', { name: owner.name })})`}
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
 * The contact of step 1: one the device offers, or a new one that exists only in the dialog until
 * the final save creates it with the recipient in one request (a cancelled
 * dialog, or a closed browser, leaves no contact behind).
 */
type ContactChoice =
  { mode: 'existing'; contact: OfferedContact } | { mode: 'new'; body: ContactBody; contact: Contact };

/** The new contact as the summary and the events form show it, before it exists. */
const draftContact = (body: ContactBody): Contact => ({
  ...body,
  id: 0,
  handle: contactHandle(body),
  deviceCount: 0,
});

/**
 * {tab}/new in two steps: choose a contact the device offers or enter a new
 * one, then set the events. Going back keeps the choice (and the new contact's fields).
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
  const [choice, setChoice] = useState<ContactChoice | null>(null);
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
      {step === 0 || !choice ? (
        <ContactStep
          deviceId={deviceId}
          chosen={choice}
          exclude={recipients.map((recipient) => recipient.contact.id)}
          onClose={onClose}
          onNext={(next) => {
            setChoice(next);
            setStep(1);
          }}
        />
      ) : (
        <EventsStep deviceId={deviceId} choice={choice} onBack={() => setStep(0)} onClose={onClose} />
      )}
    </RecipientDialog>
  );
}

/** The contacts the device offers; another user's (the owner's) named with its owner. */
function RecipientContactPicker({
  deviceId,
  exclude,
  ...field
}: {
  deviceId: number;
  exclude: readonly number[];
  value: OfferedContact | null;
  onChange: (contact: OfferedContact | null) => void;
  error: boolean;
  helperText: string;
}) {
  const { t } = useTranslation();
  const contacts = useRecipientContacts(deviceId);
  return (
    <SearchPicker
      {...field}
      required
      autoFocus
      source={{
        local: {
          options: (contacts.data ?? []).filter((contact) => !exclude.includes(contact.id)),
          loading: contacts.isPending,
          matches: (contact, term) =>
            [contact.handle, contact.role, contact.cellNumber, contact.email, contact.owner.name].some(
              (part) => part?.toLowerCase().includes(term),
            ),
        },
      }}
      getOptionLabel={(contact) => contact.handle}
      renderOptionText={(contact) =>
        `${contact.handle} (${reachOf(contact) || t('contacts.picker.noChannel')})` +
        (contact.owner.own
          ? ''
          : ` · ${t('notification-recipients.ownerBook', { name: contact.owner.name })}`)
      }
      texts={{
        label: t('contacts.picker.label'),
        loading: t('contacts.picker.loading'),
        noOptions: t('contacts.picker.noOptions'),
      }}
    />
  );
}

function ContactStep({
  deviceId,
  chosen,
  exclude,
  onNext,
  onClose,
}: {
  deviceId: number;
  chosen: ContactChoice | null;
  exclude: number[];
  onNext: (choice: ContactChoice) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<ContactMode>(chosen?.mode ?? 'existing');
  const [picked, setPicked] = useState<OfferedContact | null>(
    chosen?.mode === 'existing' ? chosen.contact : null,
  );
  const [missing, setMissing] = useState(false);
  const form = useContactForm(chosen?.mode === 'new' ? chosen.contact : undefined);

  // A new contact is only checked here (the same shared rules as the server's); it is created
  // with the recipient by the final save.
  const next =
    mode === 'existing'
      ? (event: FormEvent) => {
          event.preventDefault();
          if (picked) onNext({ mode: 'existing', contact: picked });
          else setMissing(true);
        }
      : submitContact(form, (body) => onNext({ mode: 'new', body, contact: draftContact(body) }));

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
          <RecipientContactPicker
            deviceId={deviceId}
            value={picked}
            onChange={(contact) => {
              setPicked(contact);
              setMissing(false);
            }}
            exclude={exclude}
            error={missing}
            helperText={missing ? t('validation.required') : t('notification-recipients.hints.picker')}
          />
        ) : (
          <ContactFormFields form={form} autoFocus />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained">
          {t('notification-recipients.next')}
        </Button>
      </DialogActions>
    </form>
  );
}

function EventsStep({
  deviceId,
  choice,
  onBack,
  onClose,
}: {
  deviceId: number;
  choice: ContactChoice;
  onBack: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const form = useEventsForm();
  const create = useCreateRecipient(deviceId);
  const onError = useSaveErrorHandler(form.setError);
  const { contact } = choice;
  // The contact is no field of this step: an error on it (taken meanwhile, or a field of the new
  // contact) shows above the events.
  const errors = form.formState.errors as {
    contactId?: { message?: string };
    contact?: Record<string, { message?: string }>;
  };
  const contactError =
    errors.contactId?.message ?? Object.values(errors.contact ?? {}).find((error) => error?.message)?.message;
  return (
    <form
      noValidate
      onSubmit={submitEvents(form, ({ events }) =>
        create.mutate(
          choice.mode === 'existing'
            ? { contactId: choice.contact.id, events }
            : { contact: choice.body, events },
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
        <ContactSummary
          contact={contact}
          owner={choice.mode === 'existing' ? choice.contact.owner : undefined}
        />
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
  const { t } = useTranslation();
  const recipientId = pathId(useParams().recipientId);
  const recipient = useRecipient(deviceId, recipientId);
  return (
    <EditDialogLoader
      query={recipientId === null ? null : recipient}
      closeTo={base}
      notFoundText={t('notification-recipients.notFound')}
    >
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
