import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { readReport, reasonText } from '../lib/message-reports.ts';

/**
 * A message's report in the user's language, one line per part; what the server wrote stays
 * readable behind "technical details" (support asks for it, and parts the portal does not know
 * have only that).
 */
export function MessageReport({ report, testId }: { report: string | null; testId?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const reasons = readReport(report);
  if (!report || reasons.length === 0) return <span data-testid={testId}>–</span>;
  return (
    <Box data-testid={testId}>
      {reasons.map((reason, index) => (
        <Typography key={index} variant="body2">
          {reasonText(reason, t)}
        </Typography>
      ))}
      <Button
        size="small"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls={detailsId}
        endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
        sx={{ px: 0, minWidth: 0 }}
      >
        {t('messages.technicalDetails')}
      </Button>
      <Collapse in={open} id={detailsId}>
        <Box
          component="pre"
          lang="en"
          sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: '0.8125rem' }}
        >
          {report}
        </Box>
      </Collapse>
    </Box>
  );
}
