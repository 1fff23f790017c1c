import { useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SearchIcon from '@mui/icons-material/Search';
import type { UserOption, UserTreeNode } from '@tankportal/shared/schemas/users-lookup';
import { Loading } from '../../../components/loading.tsx';
import { Page } from '../../../components/page.tsx';
import { errorText } from '../../../lib/error-texts.ts';
import { useDebouncedValue } from '../../../lib/use-debounce.ts';
import { SEARCH_PAGE_SIZE, useTreeLevel, useTreeSearch } from '../api/users-tree.ts';
import { searchTree, type SearchTreeNode } from '../lib/search-tree.ts';

/** The filter waits this long after the last keystroke. */
const FILTER_DEBOUNCE_MS = 300;
const INDENT = 3;

/**
 * The users tree (decision 038): the top the signed-in user sees, opened level by
 * level (each level from the server in pages), or, while a filter is typed, the matching users under
 * the paths above them.
 */
export default function UsersPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const term = useDebouncedValue(filter.trim(), FILTER_DEBOUNCE_MS);
  return (
    <Page title={t('users.title')}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        justifyContent="space-between"
        alignItems={{ sm: 'flex-start' }}
      >
        <TextField
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          label={t('users.filter')}
          placeholder={t('users.filterHint')}
          size="small"
          sx={{ mb: 2, width: { xs: '100%', sm: 360 } }}
          slotProps={{
            htmlInput: { maxLength: 128 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          component={RouterLink}
          to="/users/new"
          sx={{ alignSelf: { xs: 'flex-start', sm: 'auto' }, mb: 2 }}
        >
          {t('users.add')}
        </Button>
      </Stack>
      {term ? <SearchResults term={term} /> : <Tree />}
    </Page>
  );
}

function Tree() {
  const { t } = useTranslation();
  return (
    <Box role="tree" aria-label={t('users.tree')}>
      <Level parentUserId={null} depth={0} />
    </Box>
  );
}

/** One level: its users, each opening its own level, and "more" while the server has more. */
function Level({ parentUserId, depth }: { parentUserId: number | null; depth: number }) {
  const { t } = useTranslation();
  const level = useTreeLevel(parentUserId);
  if (level.isPending) return <Loading />;
  if (level.isError)
    return (
      <Typography color="error" sx={{ pl: depth * INDENT }}>
        {errorText(level.error, t)}
      </Typography>
    );
  const nodes = level.data.pages.flatMap((page) => page.items);
  const total = level.data.pages[0]?.total ?? 0;
  return (
    <>
      {nodes.map((node) => (
        <TreeItem key={node.id} node={node} depth={depth} openAtStart={parentUserId === null} />
      ))}
      {level.hasNextPage && (
        <Box sx={{ pl: depth * INDENT + 5, py: 0.5 }}>
          <Button size="small" onClick={() => void level.fetchNextPage()} loading={level.isFetchingNextPage}>
            {t('users.more', { shown: nodes.length, total })}
          </Button>
        </Box>
      )}
    </>
  );
}

function TreeItem({ node, depth, openAtStart }: { node: UserTreeNode; depth: number; openAtStart: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(openAtStart && node.childCount > 0);
  const hasChildren = node.childCount > 0;
  const subUsers = hasChildren ? t('users.subUsers', { count: node.childCount }) : null;
  const groupId = useId();
  return (
    <>
      <Box
        role="treeitem"
        aria-label={[accessibleName(node), ...roleTexts(node, t), ...(subUsers ? [subUsers] : [])].join(', ')}
        aria-expanded={hasChildren ? open : undefined}
        aria-level={depth + 1}
        aria-owns={open ? groupId : undefined}
      >
        <Row depth={depth}>
          {hasChildren ? (
            <IconButton
              size="small"
              onClick={() => setOpen(!open)}
              aria-label={t(open ? 'users.close' : 'users.open', { username: node.username })}
            >
              {open ? <ExpandMoreIcon /> : <ChevronRightIcon />}
            </IconButton>
          ) : (
            <Box sx={{ width: 34, flexShrink: 0 }} />
          )}
          <UserLabel user={node} /> <RoleChips node={node} />{' '}
          {subUsers && (
            <Typography variant="body2" color="text.secondary">
              {subUsers}
            </Typography>
          )}
        </Row>
      </Box>
      {open && (
        <Box role="group" id={groupId}>
          <Level parentUserId={node.id} depth={depth + 1} />
        </Box>
      )}
    </>
  );
}

function SearchResults({ term }: { term: string }) {
  const { t } = useTranslation();
  const search = useTreeSearch(term);
  if (search.isPending) return <Loading />;
  if (search.isError) return <Typography color="error">{errorText(search.error, t)}</Typography>;
  const { items, total } = search.data;
  return (
    <>
      <Box sx={{ height: 4 }}>{search.isFetching && <LinearProgress />}</Box>
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }} role="status">
        {total === 0
          ? t('users.noMatch', { term })
          : total > items.length
            ? t('users.matchesMore', { shown: items.length, total, max: SEARCH_PAGE_SIZE })
            : t('users.matches', { count: total })}
      </Typography>
      <Box role="tree" aria-label={t('users.tree')}>
        {searchTree(items).map((node) => (
          <SearchItem key={node.user.id} node={node} depth={0} />
        ))}
      </Box>
    </>
  );
}

function SearchItem({ node, depth }: { node: SearchTreeNode; depth: number }) {
  const { t } = useTranslation();
  const groupId = useId();
  return (
    <>
      <Box
        role="treeitem"
        aria-label={[accessibleName(node.user), ...(node.match ? roleTexts(node.match, t) : [])].join(', ')}
        aria-expanded={node.children.length > 0 ? true : undefined}
        aria-level={depth + 1}
        aria-owns={node.children.length > 0 ? groupId : undefined}
      >
        <Row depth={depth}>
          <Box sx={{ width: 34, flexShrink: 0 }} />
          <UserLabel user={node.user} strong={node.match !== null} />{' '}
          {node.match && <RoleChips node={node.match} />}
        </Row>
      </Box>
      {node.children.length > 0 && (
        <Box role="group" id={groupId}>
          {node.children.map((child) => (
            <SearchItem key={child.user.id} node={child} depth={depth + 1} />
          ))}
        </Box>
      )}
    </>
  );
}

/**
 * What a screen reader says of a node: the username, then the name (not the buttons inside). The
 * item's name goes on with every other text the line shows (role, lock, sub-users), so that it
 * holds what a speech user reads off the screen; its sub-users are a group beside it (owned by it,
 * `aria-owns`), not inside it, so that their texts are not the item's.
 */
const accessibleName = (user: UserOption) => (user.name ? `${user.username}, ${user.name}` : user.username);

const roleTexts = (node: UserTreeNode, t: TFunction) => [
  t(`users.roles.${node.role}`),
  ...(node.status === 'locked' ? [t('users.locked')] : []),
];

/** A line of the tree, indented by its depth (less on a phone, where width is scarce). */
function Row({ depth, children }: { depth: number; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        columnGap: 1,
        minHeight: 40,
        pl: { xs: depth * 1.5, sm: depth * INDENT },
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {children}
    </Box>
  );
}

/** The user's username (a link to its account) and name. */
function UserLabel({ user, strong = false }: { user: UserOption; strong?: boolean }) {
  return (
    <Typography
      component="span"
      sx={{ fontWeight: strong ? 700 : 400, overflowWrap: 'anywhere', minWidth: 0 }}
    >
      <Link component={RouterLink} to={`/users/${user.id}/account`} underline="hover">
        {user.username}
      </Link>
      {user.name && (
        <Typography component="span" color="text.secondary">
          {` · ${user.name}`}
        </Typography>
      )}
    </Typography>
  );
}

function RoleChips({ node }: { node: UserTreeNode }) {
  const { t } = useTranslation();
  return (
    <>
      <Chip size="small" variant="outlined" label={t(`users.roles.${node.role}`)} />{' '}
      {node.status === 'locked' && <Chip size="small" color="warning" label={t('users.locked')} />}
    </>
  );
}
