import { useTranslation } from 'react-i18next';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { QueryContent } from '../../../components/query-content.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useLoginHistory } from '../api/user.ts';

const COLUMNS = ['loggedInAt', 'ipAddress', 'whitelabel', 'result'] as const;

/** /users/{id}/login-history (master): every sign-in attempt under this username, newest first. */
export function LoginHistoryPage({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const history = useLoginHistory(userId);
  return (
    <>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('users.loginHistory.title')}
      </Typography>
      <QueryContent query={history}>
        {(entries) =>
          entries.length === 0 ? (
            <Typography color="text.secondary">{t('users.loginHistory.empty')}</Typography>
          ) : (
            <TableContainer>
              <Table size="small" sx={cardsOnPhone} data-testid="login-history">
                <TableHead>
                  <TableRow>
                    {COLUMNS.map((column) => (
                      <TableCell key={column}>{t(`users.loginHistory.${column}`)}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {entries.map((entry) => (
                    <TableRow key={entry.id}>
                      <TableCell data-label={t('users.loginHistory.loggedInAt')}>
                        {formatDateTime(entry.loggedInAt, locale)}
                      </TableCell>
                      <TableCell data-label={t('users.loginHistory.ipAddress')}>{entry.ipAddress}</TableCell>
                      <TableCell data-label={t('users.loginHistory.whitelabel')}>
                        {entry.whitelabel}
                      </TableCell>
                      <TableCell data-label={t('users.loginHistory.result')}>
                        {t(`users.loginHistory.results.${entry.result}`, { defaultValue: entry.result })}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )
        }
      </QueryContent>
    </>
  );
}
