import { useState, type ReactElement } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { assignableRoles, hasRole } from '@tankportal/shared/roles';
import { useAddressFacts } from '../../../../components/address-facts.tsx';
import { ConfirmDialog } from '../../../../components/dialogs/confirm-dialog.tsx';
import { EditSection } from '../../../../components/edit-section.tsx';
import { FactList, type Fact } from '../../../../components/fact-list.tsx';
import { CommentFormDialog } from '../../../../components/forms/comment-form-dialog.tsx';
import { userPickerLabel } from '../../../../components/pickers/user-picker.tsx';
import { ApiError } from '../../../../lib/api-client.ts';
import { errorText } from '../../../../lib/error-texts.ts';
import { formatDateTime } from '../../../../lib/format.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import { useCurrentUser } from '../../../../lib/session.ts';
import { useUserMutations, type UserView } from '../../api/user.ts';
import { ApiTokenSection } from './api-token-section.tsx';
import { BasedataDialog } from './basedata-dialog.tsx';
import { SecondFactorResetSection } from './second-factor-reset-section.tsx';
import { LoginDialog } from './login-dialog.tsx';

/**
 * /users/{id}/account: login, API token (master), base data, comment and delete;
 * each change in a dialog sub-route. Nobody changes their own account here (the server refuses it;
 * the own password is changed under /settings).
 */
export function AccountPage({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actor = useCurrentUser().data!;
  const locale = useLocale();
  const mutations = useUserMutations(user.id);
  const base = `/users/${user.id}/account`;
  const close = () => void navigate(base);
  const changeable = user.id !== actor.id;
  const only = (dialog: ReactElement) => (changeable ? dialog : <Navigate to={base} replace />);
  const none = t('users.none');
  const { contact } = user;
  const addressFacts = useAddressFacts(user.address, none);
  // The roles offered: the actor's assignable ones, and the user's own even when above them.
  const roles = assignableRoles(actor.role);
  if (!roles.includes(user.role)) roles.push(user.role);

  const login: Fact[] = [
    ['username', t('users.fields.username'), user.username],
    ['parentUser', t('users.fields.parentUser'), user.parentUser ? userPickerLabel(user.parentUser) : none],
    ['role', t('users.fields.role'), t(`users.roles.${user.role}`)],
    ['status', t('users.fields.status'), t(`users.status.${user.status}`)],
    ['createdAt', t('users.fields.createdAt'), formatDateTime(user.createdAt, locale)],
  ];
  const name = [
    contact.form && t(`users.basedata.forms.${contact.form}`),
    contact.firstName,
    contact.lastName,
  ]
    .filter(Boolean)
    .join(' ');
  const basedata: Fact[] = [
    [
      'legalType',
      t('users.basedata.legalType'),
      contact.legalType ? t(`users.basedata.legalTypes.${contact.legalType}`) : none,
    ],
    ['company', t('users.basedata.company'), contact.company || none],
    ['name', t('users.basedata.name'), name || none],
    ['email', t('users.basedata.email'), contact.email || none],
    ['website', t('users.basedata.website'), contact.website || none],
    ['cellNumber', t('users.basedata.cellNumber'), contact.cellNumber || none],
    ['phoneNumber', t('users.basedata.phoneNumber'), contact.phoneNumber || none],
    ['faxNumber', t('users.basedata.faxNumber'), contact.faxNumber || none],
    ['taxId', t('users.basedata.taxId'), contact.taxId || none],
    ...addressFacts,
  ];

  return (
    <Stack spacing={2} data-testid="user-account">
      <EditSection
        id="user-login"
        title={t('users.login.title')}
        editPath={changeable ? `${base}/login` : undefined}
      >
        <FactList rows={login} rowTestIdPrefix="login" />
      </EditSection>
      {hasRole(actor.role, 'ROLE_MASTER') && <ApiTokenSection user={user} mutations={mutations} />}
      {hasRole(actor.role, 'ROLE_MASTER') && actor.id !== user.id && (
        <SecondFactorResetSection mutations={mutations} />
      )}
      <EditSection
        id="user-basedata"
        title={t('users.basedata.title')}
        editPath={changeable ? `${base}/basedata` : undefined}
      >
        <FactList rows={basedata} rowTestIdPrefix="basedata" />
      </EditSection>
      <EditSection
        id="user-comment"
        title={t('users.comment.title')}
        editPath={changeable ? `${base}/comment` : undefined}
      >
        <Typography
          sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          color={user.comment ? undefined : 'text.secondary'}
        >
          {user.comment || none}
        </Typography>
      </EditSection>
      {changeable && (
        <Stack direction="row">
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteIcon />}
            onClick={() => void navigate(`${base}/delete`)}
          >
            {t('users.delete.action')}
          </Button>
        </Stack>
      )}
      <Routes>
        <Route index element={null} />
        <Route
          path="login"
          element={only(<LoginDialog user={user} roles={roles} save={mutations.login} onClose={close} />)}
        />
        <Route
          path="basedata"
          element={only(<BasedataDialog user={user} save={mutations.basedata} onClose={close} />)}
        />
        <Route
          path="comment"
          element={only(
            <CommentFormDialog
              title={t('users.comment.title')}
              label={t('users.comment.content')}
              content={user.comment}
              save={mutations.comment}
              savedText={t('users.responses.commentUpdated')}
              onSaved={close}
              onClose={close}
            />,
          )}
        />
        <Route
          path="delete"
          element={only(<DeleteUserDialog user={user} remove={mutations.remove} onClose={close} />)}
        />
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
    </Stack>
  );
}

/**
 * Deleting needs the username typed. A refusal says why: the sub-users or devices
 * the user still has (decision 037), so that the admin knows what to move first.
 */
function DeleteUserDialog({
  user,
  remove,
  onClose,
}: {
  user: UserView;
  remove: ReturnType<typeof useUserMutations>['remove'];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const refusalText = (error: unknown) => {
    const conflicts =
      error instanceof ApiError && error.status === 409 ? (error.body?.fieldErrors ?? []) : [];
    if (!conflicts.length) return null;
    return conflicts
      .map(({ path, args }) => t(`users.delete.refused.${path}`, { count: Number(args.count ?? 0) }))
      .join(' ');
  };
  return (
    <ConfirmDialog
      title={t('users.delete.title')}
      text={
        <>
          {t('users.delete.text', { username: user.username })}
          {refusal && (
            <Typography component="span" color="error" display="block" sx={{ mt: 1 }} role="alert">
              {refusal}
            </Typography>
          )}
        </>
      }
      confirmLabel={t('users.delete.action')}
      danger
      expected={user.username}
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            enqueueSnackbar(t('users.responses.deleted'), { variant: 'success' });
            void navigate('/users');
          },
          onError: (error) => {
            const text = refusalText(error);
            if (text) setRefusal(text);
            else enqueueSnackbar(errorText(error, t), { variant: 'error' });
          },
        })
      }
    />
  );
}
