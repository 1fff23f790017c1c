import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tankportal/shared/constants';
import { CONTACT_LIMITS, contactBody } from '@tankportal/shared/schemas/contacts';
import { sharedSchemaResolver } from '../../lib/field-errors.ts';
import type { Contact, ContactBody } from '../../lib/api/contacts.ts';

/** The form's values: text fields hold '' where the contact has none (the schema stores null). */
export interface ContactFormValues {
  firstName: string;
  lastName: string;
  role: string;
  cellNumber: string;
  email: string;
  language: Locale;
  comment: string;
}

const TEXT_FIELDS = ['firstName', 'lastName', 'role', 'cellNumber', 'email'] as const;

const INPUT_TYPES: Partial<Record<keyof ContactFormValues, string>> = { email: 'email', cellNumber: 'tel' };
const AUTOCOMPLETE: Partial<Record<keyof ContactFormValues, string>> = {
  firstName: 'off',
  lastName: 'off',
  email: 'off',
  cellNumber: 'off',
};

export function contactFormValues(contact?: Contact): ContactFormValues {
  return {
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    role: contact?.role ?? '',
    cellNumber: contact?.cellNumber ?? '',
    email: contact?.email ?? '',
    language: contact?.language ?? DEFAULT_LOCALE,
    comment: contact?.comment ?? '',
  };
}

export type ContactForm = UseFormReturn<ContactFormValues>;

/** A contact form checked by the shared schema, in the server's words. */
export function useContactForm(contact?: Contact): ContactForm {
  const { t } = useTranslation();
  return useForm<ContactFormValues>({
    defaultValues: contactFormValues(contact),
    resolver: sharedSchemaResolver(contactBody, t),
  });
}

/**
 * Runs `onValid` with the request body once the form is valid. The resolver has checked the
 * values already; parsing again gives the body its type (nulls for blank fields).
 */
export function submitContact(form: ContactForm, onValid: (body: ContactBody) => void) {
  return form.handleSubmit((values) => onValid(contactBody.parse(values)));
}

/**
 * The fields of a contact: used by the contacts pages and by the recipient
 * dialog's "new contact" step, so both ask the same and show server field errors the same way.
 */
export function ContactFormFields({ form, autoFocus }: { form: ContactForm; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const { register, formState } = form;
  const errorOf = (field: keyof ContactFormValues) => formState.errors[field]?.message;
  return (
    <Grid container spacing={2} sx={{ pt: 1 }}>
      {TEXT_FIELDS.map((field, index) => (
        <Grid key={field} size={{ xs: 12, sm: field === 'role' ? 12 : 6 }}>
          <TextField
            fullWidth
            label={t(`contacts.fields.${field}`)}
            type={INPUT_TYPES[field]}
            autoComplete={AUTOCOMPLETE[field]}
            autoFocus={autoFocus && index === 0}
            placeholder={field === 'cellNumber' ? t('contacts.placeholders.cellNumber') : undefined}
            slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS[field] } }}
            error={!!errorOf(field)}
            helperText={errorOf(field)}
            {...register(field)}
          />
        </Grid>
      ))}
      <Grid size={{ xs: 12, sm: 6 }}>
        <Controller
          control={form.control}
          name="language"
          render={({ field }) => (
            <TextField
              select
              fullWidth
              label={t('contacts.fields.language')}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              error={!!errorOf('language')}
              helperText={errorOf('language') ?? t('contacts.hints.language')}
            >
              {LOCALES.map((locale) => (
                <MenuItem key={locale} value={locale}>
                  {t(`contacts.languages.${locale}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Grid>
      <Grid size={12}>
        <TextField
          fullWidth
          multiline
          minRows={2}
          label={t('contacts.fields.comment')}
          slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS.comment } }}
          error={!!errorOf('comment')}
          helperText={errorOf('comment')}
          {...register('comment')}
        />
      </Grid>
    </Grid>
  );
}
