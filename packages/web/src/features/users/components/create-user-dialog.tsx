import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { createUserBody, type CreateUserBody } from '@tankportal/shared/schemas/users';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import type { PickedUser } from '../../../components/pickers/user-picker.tsx';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { pathId } from '../../../lib/path-id.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useCreateUser, useUser } from '../api/user.ts';
import { generatePassword } from '../lib/generate-password.ts';
import { LoginFields, type LoginForm } from './account/login-fields.tsx';

/**
 * /users/new: a new user, below the signed-in user or, from a user's "add sub
 * user", below that user (`?parent={id}`). The web proposes a generated password.
 */
export function CreateUserDialog() {
  const { t } = useTranslation();
  const actor = useCurrentUser().data!;
  const parentId = pathId(useSearchParams()[0].get('parent') ?? undefined);
  const parent = useUser(parentId);
  if (parentId === null || parentId === actor.id) return <CreateUserForm parent={actor} />;
  return (
    <EditDialogLoader query={parent} closeTo="/users" notFoundText={t('users.notFound')}>
      {(user) => <CreateUserForm parent={user} />}
    </EditDialogLoader>
  );
}

function CreateUserForm({ parent }: { parent: PickedUser }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const actor = useCurrentUser().data!;
  const create = useCreateUser();
  const close = () => void navigate(parent.id === actor.id ? '/users' : `/users/${parent.id}/account`);
  const [password] = useState(generatePassword);
  const form = useForm<LoginForm>({
    defaultValues: {
      username: '',
      parentUserId: parent.id,
      role: 'ROLE_USER',
      active: true,
      password,
      passwordRepeat: password,
    },
    resolver: sharedSchemaResolver(createUserBody, t),
  });
  const onSaveError = useSaveErrorHandler(form.setError);
  const submit = (values: LoginForm) =>
    create.mutate(values as CreateUserBody, {
      onSuccess: (user) => {
        enqueueSnackbar(t('users.responses.created'), { variant: 'success' });
        void navigate(`/users/${user.id}/account`);
      },
      onError: onSaveError,
    });
  return (
    <FormProvider {...form}>
      <FormDialog
        title={t('users.create.title')}
        maxWidth="sm"
        onClose={close}
        onSubmit={form.handleSubmit(submit)}
        saveDisabled={create.isPending}
        saveLabel={t('users.create.save')}
        dirty={form.formState.isDirty}
        testId="create-user"
      >
        <LoginFields initialParent={parent} roles={actor.assignableRoles} />
      </FormDialog>
    </FormProvider>
  );
}
