import { useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { devicePageOf, devicePath } from '../../../../lib/device-path.ts';
import { useNavigationIds } from '../../api/navigation-ids.ts';
import {
  DEVICE_ID_FIELD_MAX_LENGTH,
  deviceIdFieldValue,
  quickNavigationTargets,
  type QuickNavigationTargets,
} from './device-route.ts';

const BUTTONS: { target: keyof QuickNavigationTargets; Icon: typeof FirstPageIcon }[] = [
  { target: 'first', Icon: FirstPageIcon },
  { target: 'previous', Icon: NavigateBeforeIcon },
  { target: 'next', Icon: NavigateNextIcon },
  { target: 'last', Icon: LastPageIcon },
];

/**
 * First / previous / next / last device of the list's current query and an id field whose Enter
 * jumps only to ids in that list. The sub-page (process, consumption ...) is kept.
 */
export function QuickNavigation({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: ids = [] } = useNavigationIds();
  const [typed, setTyped] = useState(String(deviceId).slice(0, DEVICE_ID_FIELD_MAX_LENGTH));
  const [notInList, setNotInList] = useState(false);
  const targets = quickNavigationTargets(ids, deviceId);
  // The sub-page as the address bar has it at the click: while a sub-page opened a moment ago is
  // still loading, the router's location of this render is the page before it.
  const go = (target: number) =>
    void navigate(devicePath(target, devicePageOf(window.location.pathname, deviceId)));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const target = Number(typed);
    if (!typed || !ids.includes(target)) {
      setNotInList(!!typed);
      return;
    }
    if (target !== deviceId) go(target);
  };

  const navButton = ({ target, Icon }: (typeof BUTTONS)[number]) => (
    <Tooltip key={target} title={t(`device.nav.${target}`)}>
      <span>
        <IconButton
          aria-label={t(`device.nav.${target}`)}
          disabled={targets[target] === null}
          onClick={() => go(targets[target]!)}
        >
          <Icon />
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <Stack
      direction="row"
      spacing={0.5}
      alignItems="flex-start"
      component="nav"
      aria-label={t('device.nav.quick')}
    >
      {BUTTONS.slice(0, 2).map(navButton)}
      <TextField
        size="small"
        label={t('device.nav.id')}
        value={typed}
        error={notInList}
        helperText={notInList ? t('device.nav.notInList') : undefined}
        onChange={(event) => {
          setTyped(deviceIdFieldValue(event.target.value));
          setNotInList(false);
        }}
        onKeyDown={onKeyDown}
        slotProps={{
          htmlInput: { inputMode: 'numeric', 'data-testid': 'device-id-field' },
        }}
        sx={{ width: 120 }}
      />
      {BUTTONS.slice(2).map(navButton)}
    </Stack>
  );
}
