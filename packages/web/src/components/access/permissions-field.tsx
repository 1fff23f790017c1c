import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import { PERMISSION_GROUPS, type DevicePermission } from '@tankportal/shared/devices';

const GROUPS = Object.entries(PERMISSION_GROUPS) as [
  keyof typeof PERMISSION_GROUPS,
  readonly DevicePermission[],
][];

/** The device permissions as checkboxes in the read / write / execute groups. */
export function PermissionsField({
  value,
  onChange,
}: {
  value: readonly DevicePermission[];
  onChange: (permissions: DevicePermission[]) => void;
}) {
  const { t } = useTranslation();
  const toggle = (permission: DevicePermission, on: boolean) =>
    onChange(
      GROUPS.flatMap(([, permissions]) => permissions).filter((name) =>
        name === permission ? on : value.includes(name),
      ),
    );
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
        {GROUPS.map(([group, permissions]) => (
          <FormControl key={group} component="fieldset" data-testid={`permission-group-${group}`}>
            <FormLabel component="legend">{t(`device-access.groups.${group}`)}</FormLabel>
            <FormGroup>
              {permissions.map((permission) => (
                <FormControlLabel
                  key={permission}
                  control={
                    <Checkbox
                      checked={value.includes(permission)}
                      onChange={(event) => toggle(permission, event.target.checked)}
                      name={permission}
                    />
                  }
                  label={t(`device-access.permissions.${permission}`)}
                />
              ))}
            </FormGroup>
          </FormControl>
        ))}
      </Stack>
      {value.length === 0 && <FormHelperText error>{t('device-access.atLeastOne')}</FormHelperText>}
    </Stack>
  );
}
