import { applyPresets, withoutPresetProperties } from './preset-arguments';

describe('applyPresets', () => {
  it('merges the presets in and names, sorted, those a call tries to change', () => {
    expect(applyPresets({ head: 2, path: '/etc/passwd', mode: 'x' }, { path: '/srv/a', mode: 'x', z: 1 })).toEqual({
      args: { head: 2, path: '/srv/a', mode: 'x', z: 1 },
      changed: ['path'],
    });
    expect(applyPresets({ filter: { a: [1, 2] } }, { filter: { a: [1, 2] } }).changed).toEqual([]);
    expect(applyPresets({ a: 1 }, null)).toEqual({ args: { a: 1 }, changed: [] });
  });

  it('throws on presets that are not a JSON object', () => {
    expect(() => applyPresets({}, ['a'])).toThrow('preset arguments must be a JSON object');
    expect(() => applyPresets({}, { when: new Date() })).toThrow();
  });
});

describe('withoutPresetProperties', () => {
  it('shows a caller only the arguments that are its to give', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' }, head: { type: 'number' } },
      required: ['path'],
      additionalProperties: false,
    };
    expect(withoutPresetProperties(schema, { path: '/srv/a' })).toEqual({
      type: 'object',
      properties: { head: { type: 'number' } },
      required: [],
      additionalProperties: false,
    });
    expect(withoutPresetProperties({ type: 'object' }, { path: '/srv/a' })).toEqual({ type: 'object' });
  });
});
