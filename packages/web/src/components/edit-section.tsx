import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';

interface EditSectionProps {
  /** Also the section's test id and the id its heading labels it by. */
  id: string;
  title: string;
  /** Where the edit button leads (a dialog route); no button without it. */
  editPath?: string;
  children: ReactNode;
}

/**
 * One block of a page of facts (a device's metadata, a user's account): heading, content, and the
 * edit button that opens its dialog.
 */
export function EditSection({ id, title, editPath, children }: EditSectionProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={`${id}-title`}
      data-testid={id}
      sx={{ p: 2 }}
    >
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
        <Typography id={`${id}-title`} variant="h6" component="h2">
          {title}
        </Typography>
        {editPath && (
          <Button size="small" startIcon={<EditIcon />} onClick={() => void navigate(editPath)}>
            {t('common.edit')}
          </Button>
        )}
      </Stack>
      <Box>{children}</Box>
    </Paper>
  );
}
