import { z } from 'zod';
import { FIELD_ERROR_CODES } from '@tankportal/shared/field-errors';

/** The one 4xx shape, for the OpenAPI document. */
export const errorSchema = z.object({
  statusCode: z.number(),
  error: z.string(),
  message: z.string(),
  fieldErrors: z.array(
    z.object({
      path: z.string(),
      code: z.enum(FIELD_ERROR_CODES),
      args: z.record(z.string(), z.union([z.string(), z.number()])),
    }),
  ),
});
