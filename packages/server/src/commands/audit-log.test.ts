import { describe, expect, it } from 'vitest';
import { changedFields } from './audit-log.ts';

describe('changedFields', () => {
  it('names only the fields that changed, with both values, and leaves out fields not sent', () => {
    expect(
      changedFields(
        { name: 'Alt', city: 'Kassel', project: null },
        { name: 'Neu', city: 'Kassel', project: undefined },
      ),
    ).toEqual({
      name: { old: 'Alt', new: 'Neu' },
    });
  });

  it('shows which sensor of a list changed, and a removed one as gone', () => {
    const before = {
      sensors: [
        { capacity: 1000, unit: 'l' },
        { capacity: 500, unit: 'l' },
      ],
    };
    const after = { sensors: [{ capacity: 1200, unit: 'l' }] };
    expect(changedFields(before, after)).toEqual({
      'sensors.1.capacity': { old: 1000, new: 1200 },
      'sensors.2.capacity': { old: 500, new: null },
      'sensors.2.unit': { old: 'l', new: null },
    });
  });

  it('says of a secret only that it changed', () => {
    const changes = changedFields({ passwordHash: 'old-hash' }, { passwordHash: 'new-hash' }, [
      'passwordHash',
    ]);
    expect(changes).toEqual({ passwordHash: { secret: true } });
    expect(JSON.stringify(changes)).not.toMatch(/old-hash|new-hash/);
  });
});
