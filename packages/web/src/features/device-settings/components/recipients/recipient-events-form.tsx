import { Controller, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import {
  allowedChannels,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENT_NAMES,
  NOTIFICATION_EVENTS,
  NOTIFY_ONCE_IN_UNITS,
  type NotificationChannel,
  type NotificationEventName,
  type NotifyOnceInUnit,
} from '@tankportal/shared/notifications';
import {
  recipientEventsBody,
  type RecipientEventsBody,
} from '@tankportal/shared/schemas/notification-recipients';
import type { Contact } from '../../../../lib/api/contacts.ts';
import { VISUALLY_HIDDEN } from '../../../../components/visually-hidden.ts';
import { sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import type { RecipientEvent } from '../../api/recipients.ts';
import { notifyOnceInInput, notifyOnceInSeconds } from './notify-once-in.ts';

/** One event row of the form: the ticked channels and notifyOnceIn as typed, with its unit. */
export interface EventInput {
  name: NotificationEventName;
  channels: NotificationChannel[];
  notifyOnceIn: string;
  unit: NotifyOnceInUnit;
}

export interface EventsFormValues {
  events: EventInput[];
}

export type EventsForm = UseFormReturn<EventsFormValues>;

const UNITS = Object.keys(NOTIFY_ONCE_IN_UNITS) as NotifyOnceInUnit[];

/**
 * The form's values turned into the API body (seconds), then checked by the shared schema: errors
 * keep the body's paths (`events.1.notifyOnceIn`), which are the form's field names. An event
 * without channels is not sent, so its interval is not either.
 */
const eventsFormSchema = z
  .object({
    events: z.array(
      z.object({
        name: z.enum(NOTIFICATION_EVENT_NAMES as [NotificationEventName, ...NotificationEventName[]]),
        channels: z.array(z.enum(NOTIFICATION_CHANNELS)),
        notifyOnceIn: z.string(),
        unit: z.enum(UNITS as [NotifyOnceInUnit, ...NotifyOnceInUnit[]]),
      }),
    ),
  })
  .transform(({ events }): z.input<typeof recipientEventsBody> => ({
    events: events.map((event) => ({
      name: event.name,
      channels: event.channels,
      notifyOnceIn: event.channels.length ? notifyOnceInSeconds(event) : null,
    })),
  }))
  .pipe(recipientEventsBody);

/** Form values for every event, in the order of NOTIFICATION_EVENTS; a new recipient has none set. */
function eventsFormValues(events?: readonly RecipientEvent[]): EventsFormValues {
  return {
    events: NOTIFICATION_EVENT_NAMES.map((name) => {
      const event = events?.find((candidate) => candidate.name === name);
      const channels = event?.channels ?? [];
      return { name, channels, ...notifyOnceInInput(event?.notifyOnceIn ?? null, channels.length > 0) };
    }),
  };
}

export function useEventsForm(events?: readonly RecipientEvent[]): EventsForm {
  const { t } = useTranslation();
  return useForm<EventsFormValues>({
    defaultValues: eventsFormValues(events),
    resolver: sharedSchemaResolver(eventsFormSchema, t),
  });
}

/** Runs `onValid` with the API body once the form is valid (the values as typed, converted). */
export function submitEvents(form: EventsForm, onValid: (body: RecipientEventsBody) => void) {
  return form.handleSubmit(() => onValid(eventsFormSchema.parse(form.getValues())));
}

type ChannelBlock = 'notForEvent' | 'noCellNumber' | 'noEmail';

/** Why a channel cannot be ticked for this event and contact, or null when it can. */
function channelBlock(
  event: NotificationEventName,
  channel: NotificationChannel,
  contact: Contact,
): ChannelBlock | null {
  if (allowedChannels(event, contact).includes(channel)) return null;
  if (!(NOTIFICATION_EVENTS[event] as readonly string[]).includes(channel)) return 'notForEvent';
  return channel === 'sms' ? 'noCellNumber' : 'noEmail';
}

/**
 * The events of a recipient: per event the channels, each only where the
 * event allows it and the contact can receive it (SMS: cell number, mail: e-mail), and the
 * shortest time between two notifications, in minutes, hours or days.
 */
export function RecipientEventsFields({ form, contact }: { form: EventsForm; contact: Contact }) {
  const { t } = useTranslation();
  const { control, formState, getFieldState } = form;
  const events = useWatch({ control, name: 'events' });
  return (
    <Table size="small" aria-label={t('notification-recipients.steps.events')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('notification-recipients.columns.event')}</TableCell>
          {NOTIFICATION_CHANNELS.map((channel) => (
            <TableCell key={channel} align="center">
              {t(`notification-recipients.channels.${channel}`)}
            </TableCell>
          ))}
          <TableCell>{t('notification-recipients.notifyOnceIn')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {events.map((event, index) => {
          const label = t(`notification-recipients.events.${event.name}`);
          const channelsError = getFieldState(`events.${index}.channels`, formState).error;
          const intervalError = getFieldState(`events.${index}.notifyOnceIn`, formState).error;
          const sent = event.channels.length > 0;
          return (
            <TableRow key={event.name} data-testid={`event-${event.name}`}>
              <TableCell component="th" scope="row">
                {label}
                {channelsError && <FormHelperText error>{channelsError.message}</FormHelperText>}
              </TableCell>
              {NOTIFICATION_CHANNELS.map((channel) => {
                const block = channelBlock(event.name, channel, contact);
                const name = `${label}: ${t(`notification-recipients.channels.${channel}`)}`;
                return (
                  <TableCell key={channel} align="center">
                    <Controller
                      control={control}
                      name={`events.${index}.channels`}
                      render={({ field }) => (
                        <Tooltip title={block ? t(`notification-recipients.blocked.${block}`) : ''}>
                          {/* A disabled input shows no tooltip itself: the span carries it. */}
                          <span>
                            <Checkbox
                              checked={field.value.includes(channel)}
                              disabled={!!block}
                              onChange={(_event, checked) =>
                                field.onChange(
                                  NOTIFICATION_CHANNELS.filter((each) =>
                                    each === channel ? checked : field.value.includes(each),
                                  ),
                                )
                              }
                              slotProps={{ input: { 'aria-label': name } }}
                            />
                          </span>
                        </Tooltip>
                      )}
                    />
                  </TableCell>
                );
              })}
              <TableCell>
                <Stack direction="row" spacing={1}>
                  <Controller
                    control={control}
                    name={`events.${index}.notifyOnceIn`}
                    render={({ field }) => (
                      <TextField
                        {...field}
                        size="small"
                        disabled={!sent}
                        error={!!intervalError}
                        helperText={intervalError?.message}
                        slotProps={{
                          htmlInput: {
                            inputMode: 'decimal',
                            'aria-label': `${label}: ${t('notification-recipients.notifyOnceIn')}`,
                          },
                        }}
                        sx={{ width: 110 }}
                      />
                    )}
                  />
                  {/* The select's name: MUI names its combobox by a label element and its own
                      value, and an aria-label on the hidden input reaches no screen reader. */}
                  <Box component="span" id={`recipient-unit-${event.name}`} sx={VISUALLY_HIDDEN}>
                    {t('notification-recipients.unitOf', { event: label })}
                  </Box>
                  <Controller
                    control={control}
                    name={`events.${index}.unit`}
                    render={({ field }) => (
                      <TextField
                        select
                        size="small"
                        disabled={!sent}
                        value={field.value}
                        onChange={field.onChange}
                        sx={{ width: 130 }}
                        slotProps={{ select: { labelId: `recipient-unit-${event.name}` } }}
                      >
                        {UNITS.map((unit) => (
                          <MenuItem key={unit} value={unit}>
                            {t(`notification-recipients.units.${unit}`)}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                </Stack>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
