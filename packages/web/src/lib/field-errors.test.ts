import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { metadataBody } from '@tankportal/shared/schemas/device-metadata';
import { sharedSchemaResolver } from './field-errors.ts';

const t = ((key: string | string[]) => `<${[key].flat().at(-1)}>`) as unknown as TFunction;

const baseData = (address: Record<string, string>) => ({
  name: 'Tank',
  project: '',
  address: { street: '', streetNumber: '', postalCode: '', city: '', countryCode: 'DE', ...address },
  userId: 1,
});

describe('shared schema resolver', () => {
  it('base data: each over-long address field has its error where the form reads it (errors.address.postalCode)', async () => {
    const resolve = sharedSchemaResolver(metadataBody, t);
    const tooLong = {
      street: 'S'.repeat(129),
      streetNumber: '1'.repeat(13),
      postalCode: '123456789',
      city: 'C'.repeat(65),
    };
    for (const [field, value] of Object.entries(tooLong)) {
      const { errors } = await resolve(baseData({ [field]: value }));
      const address = (errors as { address?: Record<string, { type: string; message: string }> }).address;
      expect(address?.[field], field).toEqual({ type: 'max_length', message: '<validation.max_length>' });
    }
    expect((await resolve(baseData({ postalCode: '34117' }))).errors).toEqual({});
  });
});
