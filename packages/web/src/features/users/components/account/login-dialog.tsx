import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import type { UseMutationResult } from '@tanstack/react-query';
import type { Role } from '@tankportal/shared/roles';
import { userLoginBody, type UserLoginBody } from '@tankportal/shared/schemas/users';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import type { UserView } from '../../api/user.ts';
import { LoginFields, type LoginForm } from './login-fields.tsx';

interface LoginDialogProps {
  user: UserView;
  roles: readonly Role[];
  save: UseMutationResult<UserView, Error, UserLoginBody>;
  onClose: () => void;
}

/**
 * /users/{id}/account/login: username, parent, role, active (unticked locks the user: its sessions
 * and API token stop at once) and, when typed, a new password.
 */
export function LoginDialog({ user, roles, save, onClose }: LoginDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const form = useForm<LoginForm>({
    defaultValues: {
      username: user.username,
      parentUserId: user.parentUserId,
      role: user.role,
      active: user.active,
      password: '',
      passwordRepeat: '',
    },
    resolver: sharedSchemaResolver(userLoginBody, t),
  });
  const onSaveError = useSaveErrorHandler(form.setError);
  const submit = (values: LoginForm) =>
    save.mutate(values as UserLoginBody, {
      onSuccess: () => {
        enqueueSnackbar(t('users.responses.updated'), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  return (
    <FormProvider {...form}>
      <FormDialog
        title={t('users.login.title')}
        maxWidth="sm"
        onClose={onClose}
        onSubmit={form.handleSubmit(submit)}
        saveDisabled={save.isPending}
        dirty={form.formState.isDirty}
        testId="user-login"
      >
        <LoginFields initialParent={user.parentUser} roles={roles} editedUserId={user.id} passwordOptional />
      </FormDialog>
    </FormProvider>
  );
}
