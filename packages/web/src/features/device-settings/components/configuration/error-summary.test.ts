import { describe, expect, it } from 'vitest';
import { errorPaths, splitByShown } from './error-summary.tsx';

describe('configuration error summary', () => {
  // What react-hook-form holds after the resolver and the server's field errors (with DOM refs).
  const errors = {
    valueInterval: { type: 'max', message: 'too big', ref: { name: 'valueInterval' } },
    timeInterval: { value: { type: 'required', message: 'empty' } },
    sensors: [undefined, { measuringRange: { type: 'required', message: 'empty' } }],
    iotV230FailText: { type: 'invalid', message: 'letters only' },
  };

  it('finds every error with its field path', () => {
    expect(errorPaths(errors)).toEqual([
      { path: 'valueInterval', message: 'too big' },
      { path: 'timeInterval.value', message: 'empty' },
      { path: 'sensors.1.measuringRange', message: 'empty' },
      { path: 'iotV230FailText', message: 'letters only' },
    ]);
  });

  it('lists the errors no input on screen shows: "check the marked fields" only with a marked one', () => {
    const shown = new Set(['valueInterval', 'timeInterval', 'timeInterval.value']);
    const { marked, unmarked } = splitByShown(errorPaths(errors), shown);
    expect(marked.map((error) => error.path)).toEqual(['valueInterval', 'timeInterval.value']);
    expect(unmarked.map((error) => error.path)).toEqual(['sensors.1.measuringRange', 'iotV230FailText']);
    expect(splitByShown(errorPaths(errors), new Set()).marked).toEqual([]);
  });
});
