import { describe, expect, it } from 'vitest';
import { dataFlowExportSearch } from './list-export.ts';

describe('data-flow export request', () => {
  it('sends snake_case keys and repeats the list keys with their brackets', () => {
    const search = new URLSearchParams(
      dataFlowExportSearch({
        period: '2024',
        contentTypes: ['adblue', 'diesel'],
        outputs: ['inflow', 'qty'],
        mode: 'last_value',
        at: 'month_start',
        format: 'csv',
        locale: 'en',
      }),
    );
    expect(search.get('export_type')).toBe('probe_data_flow');
    expect(search.get('file_format')).toBe('csv');
    expect(search.get('interpolation_mode')).toBe('last_value');
    expect(search.get('interpolation_date')).toBe('month_start');
    expect(search.getAll('content_types[]')).toEqual(['adblue', 'diesel']);
    expect(search.getAll('outputs[]')).toEqual(['inflow', 'qty']);
  });
});
