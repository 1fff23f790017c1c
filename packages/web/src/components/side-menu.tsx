import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type SvgIcon from '@mui/material/SvgIcon';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';

/** One entry of a side menu: a page, its label (translated) and icon. */
export interface SideMenuEntry {
  to: string;
  label: string;
  Icon: typeof SvgIcon;
  selected?: boolean;
}

/** How far one arrow press scrolls the row: most of what it shows, so that no entry is skipped. */
const SCROLL_SHARE = 0.8;

/**
 * The menu of an object's pages (a device's, a user's): a column beside the page on a wide screen,
 * one row above it on a phone and a tablet (below `md`), which scrolls inside itself, so that the
 * page's content starts on the first screen. Where the row is cut, an arrow at that end says so
 * and scrolls on (a phone shows no scroll bar).
 */
export function SideMenu({ label, entries }: { label: string; entries: readonly SideMenuEntry[] }) {
  const { t } = useTranslation();
  const menu = useRef<HTMLElement>(null);
  const [cut, setCut] = useState({ start: false, end: false });
  const measure = useCallback(() => {
    const row = menu.current;
    if (!row) return;
    // A pixel of slack: scroll positions are fractions on zoomed screens.
    const start = row.scrollLeft > 1;
    const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
    setCut((current) => (current.start === start && current.end === end ? current : { start, end }));
  }, []);
  const selectedIndex = entries.findIndex((entry) => entry.selected);
  // In the row, the current page's entry is scrolled into view.
  useLayoutEffect(() => {
    const row = menu.current;
    const selected = row?.querySelector<HTMLElement>('.Mui-selected');
    if (row && selected && row.scrollWidth > row.clientWidth)
      row.scrollLeft = selected.offsetLeft - (row.clientWidth - selected.offsetWidth) / 2;
    measure();
  }, [selectedIndex, measure]);
  useEffect(() => {
    const row = menu.current;
    if (!row) return;
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    return () => observer.disconnect();
  }, [measure]);
  const scroll = (direction: -1 | 1) => {
    const row = menu.current;
    row?.scrollBy({ left: direction * row.clientWidth * SCROLL_SHARE, behavior: 'smooth' });
  };
  const arrow = (direction: -1 | 1) => (
    <IconButton
      size="small"
      onClick={() => scroll(direction)}
      aria-label={t(direction < 0 ? 'common.menuScroll.back' : 'common.menuScroll.forward', { menu: label })}
      data-testid={direction < 0 ? 'side-menu-back' : 'side-menu-forward'}
      sx={{ flexShrink: 0 }}
    >
      {direction < 0 ? <ChevronLeftIcon /> : <ChevronRightIcon />}
    </IconButton>
  );
  return (
    <Box
      sx={{
        width: { md: 220 },
        flexShrink: 0,
        minWidth: 0,
        display: { xs: 'flex', md: 'block' },
        alignItems: 'center',
        borderBottom: { xs: 1, md: 0 },
        borderColor: 'divider',
      }}
    >
      {cut.start && arrow(-1)}
      <List
        ref={menu}
        component="nav"
        aria-label={label}
        dense
        onScroll={measure}
        sx={{
          flex: { xs: 1, md: 'initial' },
          minWidth: 0,
          display: { xs: 'flex', md: 'block' },
          gap: { xs: 0.5, md: 0 },
          overflowX: { xs: 'auto', md: 'visible' },
          py: { xs: 0, md: 1 },
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
      {cut.end && arrow(1)}
    </Box>
  );
}
