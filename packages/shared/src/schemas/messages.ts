import { z } from 'zod';
import { MESSAGE_DIRECTIONS, MESSAGE_MODES, MESSAGE_STATUSES, MESSAGE_TYPES } from '../devices.ts';
import { moment, queryId } from './common.ts';

/** The page sizes of the message lists; 100 by default. */
export const MESSAGE_PAGE_SIZES = [50, 100, 250, 500] as const;
export const MESSAGE_DEFAULT_PAGE_SIZE = 100;
export const MESSAGE_SORT_KEYS = ['createdAt', 'status', 'type'] as const;
export type MessageSortKey = (typeof MESSAGE_SORT_KEYS)[number];

/**
 * A message id (a path segment or a query value): plain digits, positive, within JavaScript's safe
 * integers (the log's ids are 64-bit and outgrow int4 in a long-running installation).
 */
export const messageId = () =>
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/, { error: 'invalid' })
    .transform(Number);

const flag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');

/**
 * Query of `GET /v2/messages` after snake_case -> camelCase: the device context
 * (`device_id`, `total_count=1` for numbered pages) or the global log (admins; the has-more flag).
 * `max_id` pins a list to the messages there were when its first page loaded, so that later pages
 * do not shift while new messages arrive; every answer names it in `x-max-id`.
 */
export const messageListQuery = z
  .object({
    sort: z
      .string()
      .regex(new RegExp(`^(${MESSAGE_SORT_KEYS.join('|')}):(asc|desc)$`), { error: 'invalid' })
      .default('createdAt:desc'),
    page: z
      .string()
      .regex(/^[1-9]\d{0,5}$/, { error: 'invalid' })
      .transform(Number)
      .default(1),
    perPage: z
      .enum(MESSAGE_PAGE_SIZES.map(String) as [string, ...string[]], { error: 'invalid' })
      .transform(Number)
      .default(MESSAGE_DEFAULT_PAGE_SIZE),
    totalCount: flag.optional(),
    deviceId: queryId().optional(),
    direction: z.enum(MESSAGE_DIRECTIONS, { error: 'invalid' }).optional(),
    status: z.enum(MESSAGE_STATUSES, { error: 'invalid' }).optional(),
    mode: z.enum(MESSAGE_MODES, { error: 'invalid' }).optional(),
    type: z.enum(MESSAGE_TYPES, { error: 'invalid' }).optional(),
    from: moment().optional(),
    to: moment().optional(),
    maxId: messageId().optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    error: 'invalid',
  });
export type MessageListQuery = z.infer<typeof messageListQuery>;

/** Query of `GET /v2/messages/{id}`: within a device's pages (`device_id`), that device's message only. */
export const messageQuery = z.object({ deviceId: queryId().optional() });

/** A message of the log as the lists and the detail answer it. */
export const messageSchema = z.object({
  id: z.number(),
  deviceId: z.number().nullable(),
  device: z.object({ id: z.number(), name: z.string() }).nullable(),
  type: z.enum(MESSAGE_TYPES),
  direction: z.enum(MESSAGE_DIRECTIONS),
  mode: z.enum(MESSAGE_MODES),
  status: z.enum(MESSAGE_STATUSES),
  indication: z.string().nullable(),
  content: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  fromType: z.string().nullable(),
  toType: z.string().nullable(),
  gatewayId: z.number().nullable(),
  username: z.string().nullable(),
  report: z.string().nullable(),
  createdAt: z.date(),
  receivedAt: z.date().nullable(),
  sentAt: z.date().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

/** Headers of `GET /v2/messages`. */
export const MESSAGE_HEADERS = {
  totalCount: 'x-total-count',
  hasMore: 'x-has-more-results',
  maxId: 'x-max-id',
} as const;
