import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar, type SnackbarKey } from 'notistack';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import CodeIcon from '@mui/icons-material/Code';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useLocale } from '../../../lib/i18n.ts';
import { downloadInvoiceExport, type Invoice, type InvoiceExportFormat } from '../api/billing.ts';
import { invoiceExportFailure } from '../lib/invoice-export-error.ts';

const FORMATS: { format: InvoiceExportFormat; Icon: typeof CodeIcon }[] = [
  { format: 'pdf', Icon: PictureAsPdfIcon },
  { format: 'xml', Icon: CodeIcon },
];

/**
 * The invoice as a file (master): the PDF with the e-invoice embedded (ZUGFeRD / Factur-X), or the
 * e-invoice alone (XML), in the UI's language. The PDF takes a moment: its button spins meanwhile
 * and neither starts twice. A refusal is an error toast that leads to where it is fixed.
 */
export function InvoiceExportButtons({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  const [running, setRunning] = useState<InvoiceExportFormat | null>(null);

  const start = (format: InvoiceExportFormat) => {
    setRunning(format);
    downloadInvoiceExport(invoice.id, format, locale)
      .catch((error: unknown) => {
        const { text, link } = invoiceExportFailure(error, invoice, t);
        enqueueSnackbar(text, {
          variant: 'error',
          // Time to follow the link.
          autoHideDuration: link ? 10_000 : undefined,
          action: link
            ? (key: SnackbarKey) => (
                <Button
                  color="inherit"
                  size="small"
                  component={RouterLink}
                  to={link.to}
                  onClick={() => closeSnackbar(key)}
                >
                  {link.label}
                </Button>
              )
            : undefined,
        });
      })
      .finally(() => setRunning(null));
  };

  return (
    <Stack
      direction="row"
      role="group"
      aria-label={t('billing.invoice.export.title')}
      useFlexGap
      sx={{ flexWrap: 'wrap', gap: 1 }}
      data-testid="invoice-export"
    >
      {FORMATS.map(({ format, Icon }) => (
        <Button
          key={format}
          variant="outlined"
          disabled={running !== null}
          aria-busy={running === format}
          startIcon={running === format ? <CircularProgress size={18} color="inherit" /> : <Icon />}
          onClick={() => start(format)}
          sx={{ flex: { xs: '1 1 auto', sm: '0 0 auto' } }}
        >
          {t(`billing.invoice.export.${format}`)}
        </Button>
      ))}
    </Stack>
  );
}
