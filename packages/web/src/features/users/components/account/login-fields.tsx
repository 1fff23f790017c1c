import { useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import type { Role } from '@tankportal/shared/roles';
import type { CreateUserInput } from '@tankportal/shared/schemas/users';
import { UserPicker, type PickedUser } from '../../../../components/pickers/user-picker.tsx';
import { generatePassword } from '../../lib/generate-password.ts';

/** The form both login dialogs fill (create: password required; edit: only when typed). */
export type LoginForm = Omit<CreateUserInput, 'parentUserId'> & { parentUserId: number | null };

interface LoginFieldsProps {
  /** The parent shown at first (the picker needs its name). */
  initialParent: PickedUser | null;
  /** The roles to offer: the actor's assignable ones, plus the user's own when it is above them. */
  roles: readonly Role[];
  /** The edited user: neither it nor anybody below it can be its parent (a cycle). */
  editedUserId?: number;
  /** Edit: the password fields are for a new one and may stay empty. */
  passwordOptional?: boolean;
}

/** Username, parent user, role, active and password. */
export function LoginFields({ initialParent, roles, editedUserId, passwordOptional }: LoginFieldsProps) {
  const { t } = useTranslation();
  const { register, control, setValue, formState } = useFormContext<LoginForm>();
  const { errors } = formState;
  const [parent, setParent] = useState<PickedUser | null>(initialParent);
  const [showPassword, setShowPassword] = useState(!passwordOptional);
  const propose = () => {
    const password = generatePassword();
    setShowPassword(true);
    setValue('password', password, { shouldDirty: true, shouldValidate: formState.isSubmitted });
    setValue('passwordRepeat', password, { shouldDirty: true, shouldValidate: formState.isSubmitted });
  };
  const passwordType = showPassword ? 'text' : 'password';
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextField
        label={t('users.fields.username')}
        required
        autoFocus
        autoComplete="off"
        error={!!errors.username}
        helperText={errors.username?.message}
        {...register('username')}
      />
      <Controller
        control={control}
        name="parentUserId"
        render={({ field, fieldState }) => (
          <UserPicker
            value={parent}
            onChange={(user) => {
              setParent(user);
              field.onChange(user?.id ?? null);
            }}
            outsideSubtreeOf={editedUserId}
            inputRef={field.ref}
            label={t('users.fields.parentUser')}
            required
            error={!!fieldState.error}
            helperText={fieldState.error?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="role"
        render={({ field, fieldState }) => (
          <TextField
            select
            label={t('users.fields.role')}
            required
            // With only one role to choose, there is nothing to choose.
            disabled={roles.length <= 1}
            error={!!fieldState.error}
            helperText={fieldState.error?.message}
            {...field}
          >
            {roles.map((role) => (
              <MenuItem key={role} value={role}>
                {t(`users.roles.${role}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch checked={!!field.value} onChange={(event) => field.onChange(event.target.checked)} />
            }
            label={t('users.fields.active')}
          />
        )}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t(passwordOptional ? 'users.fields.newPassword' : 'users.fields.password')}
          required={!passwordOptional}
          type={passwordType}
          autoComplete="new-password"
          fullWidth
          error={!!errors.password}
          helperText={errors.password?.message ?? (passwordOptional ? t('users.fields.newPasswordHint') : '')}
          {...register('password')}
        />
        <TextField
          label={t('users.fields.passwordRepeat')}
          required={!passwordOptional}
          type={passwordType}
          autoComplete="new-password"
          fullWidth
          error={!!errors.passwordRepeat}
          helperText={errors.passwordRepeat?.message}
          {...register('passwordRepeat')}
        />
      </Stack>
      <Stack direction="row">
        <Button startIcon={<AutorenewIcon />} onClick={propose}>
          {t('users.fields.generatePassword')}
        </Button>
      </Stack>
    </Stack>
  );
}
