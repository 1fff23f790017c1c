import { useState } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import type { DevicePermission } from '@tankportal/shared/devices';
import { aceUpdateBody, type Ace } from '@tankportal/shared/schemas/aces';
import { FormDialog } from '../dialogs/form-dialog.tsx';
import { EditDialogLoader } from '../dialogs/edit-dialog-loader.tsx';
import { useAce, useAceMutations } from '../../lib/api/aces.ts';
import { PermissionsField } from './permissions-field.tsx';

interface EditAceDialogProps {
  deviceId: number;
  /** null: the path holds no id, which is the same as not found. */
  aceId: number | null;
  /** The signed-in user: its own entry is not edited here. */
  actorId: number;
  /** Where closing leads. */
  closeTo: string;
  onClose: () => void;
}

/**
 * The permissions of one access entry (a device's /settings/access/{aceId}, a user's
 * /users/{id}/access/{deviceId}/{aceId}). An entry that does not load (404:
 * gone meanwhile) closes the dialog; so does the signed-in user's own entry.
 */
export function EditAceDialog({ deviceId, aceId, actorId, closeTo, onClose }: EditAceDialogProps) {
  const query = useAce(deviceId, aceId ?? 0, aceId !== null);
  return (
    <EditDialogLoader query={aceId === null ? null : query} closeTo={closeTo}>
      {(ace) =>
        ace.userId === actorId ? (
          <Navigate to={closeTo} replace />
        ) : (
          <AceForm deviceId={deviceId} ace={ace} onClose={onClose} />
        )
      }
    </EditDialogLoader>
  );
}

function AceForm({ deviceId, ace, onClose }: { deviceId: number; ace: Ace; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { update } = useAceMutations(deviceId);
  const [permissions, setPermissions] = useState<DevicePermission[]>(ace.permissions);
  const body = aceUpdateBody.safeParse({ permissions });
  const submit = () => {
    if (!body.success) return;
    // A refused save re-enables the button without a message.
    update.mutate(
      { aceId: ace.id, body: body.data },
      {
        onSuccess: () => {
          enqueueSnackbar(t('device-access.responses.updated'), { variant: 'success' });
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      title={t('device-access.editTitle', { username: ace.username })}
      maxWidth="md"
      onClose={onClose}
      onSubmit={submit}
      saveDisabled={!body.success || update.isPending}
      dirty={permissions.join() !== ace.permissions.join()}
    >
      <PermissionsField value={permissions} onChange={setPermissions} />
    </FormDialog>
  );
}
