import { useState } from 'react';
import { Link as RouterLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { useContacts, useDeleteContact, type Contact } from '../../../lib/api/contacts.ts';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { CreateContactDialog, EditContactDialog } from './contact-dialogs.tsx';

/** The page lives at both /settings/contacts and /contacts; links stay where it is. */
const basePathOf = (pathname: string) =>
  pathname.startsWith('/settings/contacts') ? '/settings/contacts' : '/contacts';

const COLUMNS = ['role', 'cellNumber', 'email', 'language'] as const;

/** The signed-in user's contact book: list, create (/new), edit (/{contactId}), delete. */
export default function ContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = basePathOf(useLocation().pathname);
  const contacts = useContacts();
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const close = () => void navigate(base);

  return (
    <Page title={t('contacts.title')}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 1 }}>
        <Button component={RouterLink} to={`${base}/new`} variant="contained" startIcon={<AddIcon />}>
          {t('contacts.new')}
        </Button>
      </Stack>
      <QueryContent query={contacts}>
        {(data) => <ContactTable contacts={data} base={base} onDelete={setDeleting} />}
      </QueryContent>
      <Routes>
        <Route path="new" element={<CreateContactDialog onClose={close} />} />
        <Route path=":contactId" element={<EditContactDialog base={base} onClose={close} />} />
      </Routes>
      {deleting && <DeleteContactDialog contact={deleting} onClose={() => setDeleting(null)} />}
    </Page>
  );
}

function ContactTable({
  contacts,
  base,
  onDelete,
}: {
  contacts: Contact[];
  base: string;
  onDelete: (contact: Contact) => void;
}) {
  const { t } = useTranslation();
  if (!contacts.length) return <Typography color="text.secondary">{t('contacts.empty')}</Typography>;
  return (
    <TableContainer>
      {/* A card per contact on a phone: the actions column stays reachable. */}
      <Table size="small" aria-label={t('contacts.title')} sx={cardsOnPhone}>
        <TableHead>
          <TableRow>
            <TableCell>{t('contacts.columns.handle')}</TableCell>
            {COLUMNS.map((column) => (
              <TableCell key={column}>{t(`contacts.columns.${column}`)}</TableCell>
            ))}
            <TableCell align="right">{t('contacts.columns.deviceCount')}</TableCell>
            <TableCell align="right">{t('contacts.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {contacts.map((contact) => (
            <TableRow key={contact.id} hover data-testid={`contact-${contact.id}`}>
              <TableCell data-label={t('contacts.columns.handle')}>
                <Link component={RouterLink} to={`${base}/${contact.id}`}>
                  {contact.handle}
                </Link>
              </TableCell>
              <TableCell data-label={t('contacts.columns.role')}>{contact.role}</TableCell>
              <TableCell data-label={t('contacts.columns.cellNumber')}>{contact.cellNumber}</TableCell>
              <TableCell data-label={t('contacts.columns.email')}>{contact.email}</TableCell>
              <TableCell data-label={t('contacts.columns.language')}>
                {t(`contacts.languages.${contact.language}`)}
              </TableCell>
              <TableCell
                align="right"
                data-testid="device-count"
                data-label={t('contacts.columns.deviceCount')}
              >
                {contact.deviceCount}
              </TableCell>
              <TableCell
                align="right"
                sx={{ whiteSpace: 'nowrap' }}
                data-label={t('contacts.columns.actions')}
              >
                <EditDeleteActions
                  editTo={`${base}/${contact.id}`}
                  onDelete={() => onDelete(contact)}
                  editLabel={t('contacts.edit')}
                  deleteLabel={t('contacts.delete')}
                  name={contact.handle}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function DeleteContactDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteContact();
  return (
    <DeleteConfirmDialog
      label={t('contacts.delete')}
      remove={remove}
      target={contact.id}
      deletedText={t('contacts.responses.deleted')}
      onClose={onClose}
      text={[
        t('contacts.deleteQuestion', { handle: contact.handle }),
        contact.deviceCount > 0 && t('contacts.recipientsGone', { count: contact.deviceCount }),
      ]
        .filter(Boolean)
        .join(' ')}
    />
  );
}
