import type { ReactElement, ReactNode } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useAddressFacts } from '../../../../components/address-facts.tsx';
import { FactList } from '../../../../components/fact-list.tsx';
import { userPickerLabel } from '../../../../components/pickers/user-picker.tsx';
import { useHasRole } from '../../../../lib/session.ts';
import { useWhitelabel } from '../../../../lib/whitelabel.ts';
import { hasDevicePermission, type DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useSaveActiveFlag, useSavePublicUrl, type CommentKind } from '../../api/metadata.ts';
import { devicePath } from '../../../../lib/device-path.ts';
import { BaseDataDialog } from './base-data-dialog.tsx';
import { COMMENT_TEXTS, CommentDialog } from './comment-dialog.tsx';
import { FlagDialog } from './flag-dialog.tsx';
import { DeleteDeviceDialog, ResetDataDialog, ResetGpsDialog } from './lifecycle-dialogs.tsx';
import { RefDateQueriesSection } from './ref-date-queries-section.tsx';
import { WeatherStationDialog, WeatherStationSection } from './weather-station-section.tsx';
import { EditSection } from '../../../../components/edit-section.tsx';
import { SendMessageDialog } from '../../../../components/dialogs/send-message-dialog.tsx';

/** What the signed-in user may do here. */
function useAbilities(device: DeviceDetailView) {
  const isMaster = useHasRole('ROLE_MASTER');
  const isAdmin = useHasRole('ROLE_ADMIN');
  const isUser = useHasRole('ROLE_USER');
  const resetDataEnabled = useWhitelabel().data?.resetDataEnabled ?? false;
  const canEdit = hasDevicePermission(device, 'EDIT');
  return {
    isMaster,
    canEdit,
    canChangeUser: isAdmin && hasDevicePermission(device, 'DELETE'),
    // Reference-date queries are for users and above; the section needs the access-managing permission.
    seesRefDateQueries: isUser && hasDevicePermission(device, 'DELETE'),
    canResetData: isMaster || (resetDataEnabled && canEdit),
    // The location comes from the IoT devices' GPS.
    canResetGps: isMaster && (device.type === 'iot' || device.type === 'lx_iot' || device.location !== null),
    rawMessageType: isMaster && (device.type === 'iot' || device.type === 'lx_iot') ? device.type : null,
  };
}

/**
 * /devices/{id}/settings/metadata: base data, the weather station of the forecast, public URL,
 * active flag, comments and the device's lifecycle actions; every change happens in a dialog
 * sub-route. With the access-managing permission the reference-date queries the device belongs to
 * show too.
 */
export default function MetadataTab({ device, reload }: { device: DeviceDetailView; reload: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const abilities = useAbilities(device);
  const { isMaster, canEdit } = abilities;
  const savePublicUrl = useSavePublicUrl(device.id);
  const saveActiveFlag = useSaveActiveFlag(device.id);

  const base = devicePath(device.id, 'settings/metadata');
  const at = (dialog: string) => `${base}/${dialog}`;
  const close = () => void navigate(base);
  const saved = () => {
    close();
    reload();
  };
  const only = (allowed: boolean, dialog: ReactElement) =>
    allowed ? dialog : <Navigate to={base} replace />;
  const none = t('device-metadata.none');
  const addressFacts = useAddressFacts(device.address, none);
  const publicUrl = device.publicUrlAccessEnabled && device.publicUrl;
  const flags = [
    {
      path: 'public-url',
      section: 'publicUrl',
      value: device.publicUrlAccessEnabled,
      save: savePublicUrl,
      saved: 'publicUrlUpdated',
    },
    {
      path: 'active-flag',
      section: 'activeFlag',
      value: device.active,
      save: saveActiveFlag,
      saved: 'activeFlagUpdated',
    },
  ] as const;
  const comments = [
    { kind: 'comment', content: device.comment, allowed: canEdit },
    { kind: 'master-comment', content: device.masterComment, allowed: isMaster },
  ] as const;

  return (
    <Stack spacing={2} data-testid="metadata-tab">
      <EditSection
        id="metadata-base-data"
        title={t('device-metadata.baseData.title')}
        editPath={canEdit ? at('edit') : undefined}
      >
        <FactList
          rows={[
            ['user', t('device-metadata.baseData.user'), userPickerLabel(device.user)],
            ['name', t('device-metadata.baseData.name'), device.name],
            ['project', t('device-metadata.baseData.project'), device.project || none],
            ...addressFacts,
          ]}
          rowTestIdPrefix="fact"
        />
      </EditSection>

      <WeatherStationSection deviceId={device.id} editPath={canEdit ? at('weather-station') : undefined} />

      {abilities.seesRefDateQueries && <RefDateQueriesSection deviceId={device.id} />}

      <FlagSection
        path="public-url"
        section="publicUrl"
        state={device.publicUrlAccessEnabled ? 'enabled' : 'disabled'}
        editPath={canEdit ? at('public-url') : undefined}
      >
        {publicUrl && (
          <Link
            href={publicUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="public-url-link"
            aria-label={t('device-metadata.publicUrl.open')}
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, overflowWrap: 'anywhere' }}
          >
            {new URL(publicUrl, window.location.origin).href}
            <OpenInNewIcon fontSize="inherit" />
          </Link>
        )}
      </FlagSection>

      <FlagSection
        path="active-flag"
        section="activeFlag"
        state={device.active ? 'active' : 'inactive'}
        editPath={canEdit ? at('active-flag') : undefined}
      />

      <CommentSection
        kind="comment"
        content={device.comment}
        editPath={canEdit ? at('comment') : undefined}
      />

      {isMaster && (
        <CommentSection
          kind="master-comment"
          content={device.masterComment}
          editPath={at('master-comment')}
        />
      )}

      <ActionButtons abilities={abilities} at={at} />

      <Routes>
        <Route index element={null} />
        <Route
          path="edit"
          element={only(
            canEdit,
            <BaseDataDialog
              device={device}
              canChangeUser={abilities.canChangeUser}
              onSaved={saved}
              onClose={close}
            />,
          )}
        />
        {flags.map((flag) => (
          <Route
            key={flag.path}
            path={flag.path}
            element={only(canEdit, <FlagDialog {...flag} onSaved={saved} onClose={close} />)}
          />
        ))}
        {comments.map(({ allowed, ...comment }) => (
          <Route
            key={comment.kind}
            path={comment.kind}
            element={only(
              allowed,
              <CommentDialog deviceId={device.id} {...comment} onSaved={saved} onClose={close} />,
            )}
          />
        ))}
        <Route
          path="weather-station"
          element={only(canEdit, <WeatherStationDialog deviceId={device.id} onClose={close} />)}
        />
        <Route
          path="reset-data"
          element={only(
            abilities.canResetData,
            <ResetDataDialog deviceId={device.id} onDone={saved} onClose={close} />,
          )}
        />
        <Route
          path="reset-gps"
          element={only(
            abilities.canResetGps,
            <ResetGpsDialog deviceId={device.id} onDone={saved} onClose={close} />,
          )}
        />
        <Route
          path="delete"
          element={only(isMaster, <DeleteDeviceDialog deviceId={device.id} onClose={close} />)}
        />
        <Route
          path="raw-message"
          element={
            abilities.rawMessageType ? (
              <SendMessageDialog deviceId={device.id} type={abilities.rawMessageType} onClose={close} />
            ) : (
              <Navigate to={base} replace />
            )
          }
        />
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
    </Stack>
  );
}

/** The public URL or the active flag: whether it is on, and what goes with it. */
function FlagSection({
  path,
  section,
  state,
  editPath,
  children,
}: {
  path: string;
  section: 'publicUrl' | 'activeFlag';
  /** The key of the state's text in the section. */
  state: string;
  editPath: string | undefined;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <EditSection id={`metadata-${path}`} title={t(`device-metadata.${section}.title`)} editPath={editPath}>
      <Typography variant="body2" data-testid={`${path}-state`}>
        {t(`device-metadata.${section}.${state}`)}
      </Typography>
      {children}
    </EditSection>
  );
}

/** The comment or the master comment, each shown as written (line breaks kept). */
function CommentSection({
  kind,
  content,
  editPath,
}: {
  kind: CommentKind;
  content: string | null;
  editPath: string | undefined;
}) {
  const { t } = useTranslation();
  const { section } = COMMENT_TEXTS[kind];
  return (
    <EditSection id={`metadata-${kind}`} title={t(`device-metadata.${section}.title`)} editPath={editPath}>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid={`${kind}-text`}>
        {content || t(`device-metadata.${section}.empty`)}
      </Typography>
    </EditSection>
  );
}

/** The actions that are no edit of a section: raw message, GPS reset, data reset, delete. */
function ActionButtons({
  abilities,
  at,
}: {
  abilities: ReturnType<typeof useAbilities>;
  at: (dialog: string) => string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actions: [dialog: string, label: string, danger: boolean][] = [];
  if (abilities.rawMessageType) actions.push(['raw-message', t('device-metadata.rawMessage.title'), false]);
  if (abilities.canResetGps) actions.push(['reset-gps', t('device-metadata.gps.title'), false]);
  if (abilities.canResetData) actions.push(['reset-data', t('device-metadata.resetData.title'), true]);
  if (abilities.isMaster) actions.push(['delete', t('device-metadata.delete.title'), true]);
  if (!actions.length) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="metadata-actions">
      {actions.map(([dialog, label, danger]) => (
        <Button
          key={dialog}
          variant="outlined"
          color={danger ? 'error' : 'primary'}
          onClick={() => void navigate(at(dialog))}
        >
          {label}
        </Button>
      ))}
    </Stack>
  );
}
