import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface LegalDialogProps {
  title: string;
  text: string;
  onClose: () => void;
}

/** Imprint or privacy policy text of the white-label, in the current language. */
export default function LegalDialog({ title, text, onClose }: LegalDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="legal-dialog-title">
      <DialogTitle id="legal-dialog-title">{title}</DialogTitle>
      <DialogContent dividers>
        <Typography sx={{ whiteSpace: 'pre-line' }}>{text}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
