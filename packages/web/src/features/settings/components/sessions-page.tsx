import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useEndOtherSessions, useEndSession, useOwnSessions, type OwnSession } from '../api/sessions.ts';
import { SettingsTabs } from './settings-tabs.tsx';

/** "Chrome on Linux"; what the User-Agent did not tell is said to be unknown, not guessed. */
function browserName(session: OwnSession, t: TFunction): string {
  if (!session.browser && !session.system) return t('sessions.unknown');
  const browser = session.browser ?? t('sessions.unknownBrowser');
  return session.system ? t('sessions.browserOn', { browser, system: session.system }) : browser;
}

/**
 * /settings/sessions: the browsers signed in to the own account (also while acting as another
 * user: they are the signed-in user's), each ended on its own or all but this one at once.
 */
export default function SessionsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const sessions = useOwnSessions();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const [ending, setEnding] = useState<OwnSession | 'others' | null>(null);
  const close = () => setEnding(null);

  const confirmEnd = (session: OwnSession) =>
    endSession.mutate(session, {
      onSuccess: () => {
        close();
        if (!session.current) enqueueSnackbar(t('sessions.ended'), { variant: 'success' });
      },
    });
  const confirmEndOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) => {
        close();
        enqueueSnackbar(t('sessions.othersEnded', { count: ended }), { variant: 'success' });
      },
    });

  return (
    <Page title={t('nav.settings')}>
      <SettingsTabs />
      <Typography sx={{ mb: 2, maxWidth: '70ch' }}>{t('sessions.intro')}</Typography>
      <QueryContent query={sessions}>
        {(list) => {
          const others = list.filter((session) => !session.current).length;
          return (
            <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
              <TableContainer>
                <Table size="small" sx={cardsOnPhone} data-testid="sessions">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('sessions.browser')}</TableCell>
                      <TableCell>{t('sessions.address')}</TableCell>
                      <TableCell>{t('sessions.createdAt')}</TableCell>
                      <TableCell>{t('sessions.lastUsedAt')}</TableCell>
                      <TableCell align="right">{t('sessions.actions')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {list.map((session) => {
                      const name = browserName(session, t);
                      return (
                        <TableRow key={session.id} data-current={session.current || undefined}>
                          <TableCell data-label={t('sessions.browser')}>
                            <Stack
                              direction="row"
                              spacing={1}
                              sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                            >
                              <span>{name}</span>
                              {session.current && (
                                <Chip size="small" color="primary" label={t('sessions.current')} />
                              )}
                            </Stack>
                          </TableCell>
                          <TableCell data-label={t('sessions.address')}>
                            {session.address ?? t('sessions.unknown')}
                          </TableCell>
                          <TableCell data-label={t('sessions.createdAt')}>
                            {formatDateTime(session.createdAt, locale)}
                          </TableCell>
                          <TableCell data-label={t('sessions.lastUsedAt')}>
                            {formatDateTime(session.lastUsedAt, locale)}
                          </TableCell>
                          <TableCell data-label={t('sessions.actions')} align="right">
                            <Button
                              size="small"
                              color="error"
                              onClick={() => setEnding(session)}
                              aria-label={t('sessions.endLabel', {
                                name: [name, session.address, session.current && t('sessions.current')]
                                  .filter(Boolean)
                                  .join(', '),
                              })}
                            >
                              {t('sessions.end')}
                            </Button>
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </TableContainer>
              <Typography variant="body2" color="text.secondary">
                {t('sessions.lastUsedHint')}
              </Typography>
              {others > 0 ? (
                <Button variant="contained" color="error" onClick={() => setEnding('others')}>
                  {t('sessions.endOthers')}
                </Button>
              ) : (
                <Typography color="text.secondary">{t('sessions.noOthers')}</Typography>
              )}
            </Stack>
          );
        }}
      </QueryContent>
      {ending === 'others' && (
        <ConfirmDialog
          title={t('sessions.endOthers')}
          text={t('sessions.endOthersText')}
          confirmLabel={t('sessions.endOthers')}
          danger
          pending={endOthers.isPending}
          onConfirm={confirmEndOthers}
          onClose={close}
        />
      )}
      {ending && ending !== 'others' && (
        <ConfirmDialog
          title={t('sessions.endTitle')}
          text={
            ending.current
              ? t('sessions.endCurrentText')
              : t('sessions.endText', {
                  name: browserName(ending, t),
                  address: ending.address ?? t('sessions.unknown'),
                })
          }
          confirmLabel={t('sessions.end')}
          danger
          pending={endSession.isPending}
          onConfirm={() => confirmEnd(ending)}
          onClose={close}
        />
      )}
    </Page>
  );
}
