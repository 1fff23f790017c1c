import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import { CHANGES_PAGE_SIZE } from '../../lib/api/changes.ts';
import type { Page } from '../../lib/api/paged.ts';
import { QueryContent } from '../query-content.tsx';
import { NumberedPages } from '../numbered-pages.tsx';
import { ChangesTable } from './changes-table.tsx';

interface CountedChangesProps {
  /** The page of entries asked for, with the count of them all. */
  changes: { data: Page<AuditEntry> | undefined; isError: boolean; error: unknown; isFetching: boolean };
  page: number;
  onPageChange: (page: number) => void;
  /** A column naming what was changed (the user's tab: the user, its devices, its contacts …). */
  objectColumn?: boolean;
}

/**
 * A changes tab (a device's, a user's): its heading, how many changes are recorded, one page of
 * them newest first, and the pages to go through them.
 */
export function CountedChanges({ changes, page, onPageChange, objectColumn }: CountedChangesProps) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} data-testid="changes-tab">
      <Typography variant="h6" component="h2">
        {t('changes.title')}
      </Typography>
      {/* The page shown stays while another loads: the bar says one is coming. */}
      <Box sx={{ height: 4 }}>{changes.isFetching && changes.data && <LinearProgress />}</Box>
      <QueryContent query={changes}>
        {({ items, total }) =>
          total === 0 ? (
            <Typography color="text.secondary" data-testid="changes-empty">
              {t('changes.empty')}
            </Typography>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary">
                {t('changes.count', { count: total })}
              </Typography>
              <ChangesTable entries={items} objectColumn={objectColumn} />
              {total > CHANGES_PAGE_SIZE && (
                <NumberedPages
                  count={Math.ceil(total / CHANGES_PAGE_SIZE)}
                  page={page}
                  onPageChange={onPageChange}
                  siblingCount={0}
                />
              )}
            </>
          )
        }
      </QueryContent>
    </Stack>
  );
}
