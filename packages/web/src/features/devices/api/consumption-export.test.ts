import { describe, expect, it } from 'vitest';
import { consumptionExportQuery } from './consumption-export.ts';

describe('consumption export query', () => {
  it('sends from as the start and to as the end of the chosen days', () => {
    const query = consumptionExportQuery({
      deviceId: 12,
      type: 'extended_consumption',
      format: 'csv',
      locale: 'en',
      from: new Date(2025, 0, 15, 13, 45),
      to: new Date(2025, 1, 3, 8, 0),
    });
    expect(query).toMatchObject({
      exportType: 'extended_consumption',
      fileFormat: 'csv',
      deviceId: 12,
      locale: 'en',
      from: new Date(2025, 0, 15, 0, 0, 0, 0).toISOString(),
      to: new Date(2025, 1, 3, 23, 59, 59, 999).toISOString(),
    });
    expect(query.timeZone).toBeTruthy();
  });
});
