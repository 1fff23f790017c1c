import { useLayoutEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type SvgIcon from '@mui/material/SvgIcon';

/** One entry of a side menu: a page, its label (translated) and icon. */
export interface SideMenuEntry {
  to: string;
  label: string;
  Icon: typeof SvgIcon;
  selected?: boolean;
}

/**
 * The menu of an object's pages (a device's, a user's): a column beside the page on a wide screen,
 * one row above it on a phone and a tablet (below `md`), which scrolls inside itself, so that the
 * page's content starts on the first screen.
 */
export function SideMenu({ label, entries }: { label: string; entries: readonly SideMenuEntry[] }) {
  const menu = useRef<HTMLElement>(null);
  const selectedIndex = entries.findIndex((entry) => entry.selected);
  // In the row, the current page's entry is scrolled into view.
  useLayoutEffect(() => {
    const row = menu.current;
    const selected = row?.querySelector<HTMLElement>('.Mui-selected');
    if (!row || !selected || row.scrollWidth <= row.clientWidth) return;
    row.scrollLeft = selected.offsetLeft - (row.clientWidth - selected.offsetWidth) / 2;
  }, [selectedIndex]);
  return (
    <List
      ref={menu}
      component="nav"
      aria-label={label}
      dense
      sx={{
        width: { md: 220 },
        flexShrink: 0,
        display: { xs: 'flex', md: 'block' },
        gap: { xs: 0.5, md: 0 },
        overflowX: { xs: 'auto', md: 'visible' },
        py: { xs: 0, md: 1 },
        borderBottom: { xs: 1, md: 0 },
        borderColor: 'divider',
        scrollbarWidth: 'thin',
        '& .MuiListItemButton-root': { flex: { xs: '0 0 auto', md: 'initial' }, whiteSpace: 'nowrap' },
        '& .MuiListItemIcon-root': { minWidth: { xs: 32, md: 56 } },
      }}
    >
      {entries.map(({ to, label: text, Icon, selected }) => (
        <ListItemButton key={to} component={NavLink} to={to} end selected={selected}>
          <ListItemIcon>
            <Icon />
          </ListItemIcon>
          <ListItemText primary={text} />
        </ListItemButton>
      ))}
    </List>
  );
}
