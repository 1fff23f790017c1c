import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { pathId } from '../../../lib/path-id.ts';
import {
  useContact,
  useCreateContact,
  useUpdateContact,
  type Contact,
  type ContactBody,
} from '../../../lib/api/contacts.ts';
import {
  ContactFormFields,
  submitContact,
  useContactForm,
  type ContactForm,
} from '../../../components/forms/contact-form.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';

interface ContactDialogProps {
  title: string;
  form: ContactForm;
  busy: boolean;
  onSubmit: (body: ContactBody) => void;
  onClose: () => void;
}

function ContactDialog({ title, form, busy, onSubmit, onClose }: ContactDialogProps) {
  return (
    <FormDialog
      title={title}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={submitContact(form, onSubmit)}
      saveDisabled={busy}
    >
      <ContactFormFields form={form} autoFocus />
    </FormDialog>
  );
}

/** {base}/new */
export function CreateContactDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const form = useContactForm();
  const create = useCreateContact();
  const onError = useSaveErrorHandler(form.setError);
  return (
    <ContactDialog
      title={t('contacts.new')}
      form={form}
      busy={create.isPending}
      onClose={onClose}
      onSubmit={(body) =>
        create.mutate(body, {
          onSuccess: () => {
            enqueueSnackbar(t('contacts.responses.created'), { variant: 'success' });
            onClose();
          },
          onError,
        })
      }
    />
  );
}

/** {base}/{contactId}: a contact that does not load (404: not the user's) closes the dialog. */
export function EditContactDialog({ base, onClose }: { base: string; onClose: () => void }) {
  const contactId = pathId(useParams().contactId);
  const contact = useContact(contactId);
  return (
    <EditDialogLoader query={contactId === null ? null : contact} closeTo={base}>
      {(loaded) => <EditContactForm contact={loaded} onClose={onClose} />}
    </EditDialogLoader>
  );
}

function EditContactForm({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const form = useContactForm(contact);
  const update = useUpdateContact(contact.id);
  const onError = useSaveErrorHandler(form.setError);
  return (
    <ContactDialog
      title={t('contacts.edit')}
      form={form}
      busy={update.isPending}
      onClose={onClose}
      onSubmit={(body) =>
        update.mutate(body, {
          onSuccess: () => {
            enqueueSnackbar(t('contacts.responses.updated'), { variant: 'success' });
            onClose();
          },
          onError,
        })
      }
    />
  );
}
