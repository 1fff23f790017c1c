import { useState, type ReactNode } from 'react';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UseMutationResult } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { DeleteConfirmDialog } from '../../../components/dialogs/delete-confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { ToursTabs } from './tours-tabs.tsx';

interface Named {
  id: number;
  name: string;
}

/**
 * A dealer's depots or trucks (/tours/depots, /tours/trucks): a hint, the add button, the table,
 * the delete confirmation, and the add and edit dialogs at `new` and `:id` below the page's path.
 * The texts are those of `tours.<kind>`.
 */
export function FleetListPage<Item extends Named>({
  kind,
  query,
  remove,
  table,
  dialog,
}: {
  kind: 'depots' | 'trucks';
  query: { data: Item[] | undefined; isError: boolean; error: unknown };
  remove: UseMutationResult<unknown, Error, number>;
  table: (items: Item[], onDelete: (item: Item) => void) => ReactNode;
  dialog: (item: Item | null, onClose: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = `/tours/${kind}`;
  const close = () => void navigate(base);
  const [deleting, setDeleting] = useState<Item | null>(null);
  return (
    <Page title={t('tours.title')}>
      <ToursTabs />
      <Stack spacing={2}>
        <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={2}>
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '75ch' }}>
            {t(`tours.${kind}.hint`)}
          </Typography>
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => void navigate(`${base}/new`)}
            sx={{ flexShrink: 0 }}
          >
            {t(`tours.${kind}.add`)}
          </Button>
        </Stack>
        <QueryContent query={query}>
          {(list) =>
            list.length === 0 ? (
              <Typography color="text.secondary" data-testid={`${kind}-empty`}>
                {t(`tours.${kind}.empty`)}
              </Typography>
            ) : (
              table(list, setDeleting)
            )
          }
        </QueryContent>
      </Stack>
      {deleting && (
        <DeleteConfirmDialog
          label={t(`tours.${kind}.delete`)}
          text={t(`tours.${kind}.deleteText`, { name: deleting.name })}
          remove={remove}
          target={deleting.id}
          deletedText={t(`tours.${kind}.deleted`, { name: deleting.name })}
          onClose={() => setDeleting(null)}
        />
      )}
      <Routes>
        <Route index element={null} />
        <Route path="new" element={dialog(null, close)} />
        <Route path=":id" element={<EditItem items={query.data} base={base} dialog={dialog} />} />
      </Routes>
    </Page>
  );
}

function EditItem<Item extends Named>({
  items,
  base,
  dialog,
}: {
  items: Item[] | undefined;
  base: string;
  dialog: (item: Item | null, onClose: () => void) => ReactNode;
}) {
  const navigate = useNavigate();
  const { id } = useParams();
  if (!items) return null;
  const item = items.find((candidate) => String(candidate.id) === id);
  if (!item) return <Navigate to={base} replace />;
  return dialog(item, () => void navigate(base));
}
