import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { FormDialog } from '../dialogs/form-dialog.tsx';

export interface TwoStepDialogProps {
  title: string;
  /** The labels of the two steps, shown in the stepper. */
  steps: [first: string, second: string];
  step: 0 | 1;
  onStepChange: (step: 0 | 1) => void;
  /** The content of the current step. */
  children: ReactNode;
  /** The first step is complete: "next" is enabled. */
  canAdvance: boolean;
  /** The second step is complete and nothing is being saved: "save" is enabled. */
  canSave: boolean;
  onSave: () => void;
  dirty: boolean;
  onClose: () => void;
}

/**
 * A new access entry in two steps: first whom or what (a user
 * for a device, a device for a user), then the permissions. Enter moves on as the buttons do.
 */
export function TwoStepDialog({
  title,
  steps,
  step,
  onStepChange,
  children,
  canAdvance,
  canSave,
  onSave,
  dirty,
  onClose,
}: TwoStepDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog
      title={title}
      maxWidth="md"
      onClose={onClose}
      dirty={dirty}
      onSubmit={() => {
        if (step === 1) {
          if (canSave) onSave();
        } else if (canAdvance) onStepChange(1);
      }}
      actions={
        step === 0 ? (
          <Button type="submit" variant="contained" disabled={!canAdvance}>
            {t('device-access.new.next')}
          </Button>
        ) : (
          <>
            <Button onClick={() => onStepChange(0)}>{t('device-access.new.back')}</Button>
            <Button type="submit" variant="contained" disabled={!canSave}>
              {t('common.save')}
            </Button>
          </>
        )
      }
    >
      <Stepper activeStep={step} sx={{ mb: 3 }}>
        {steps.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {children}
    </FormDialog>
  );
}
