import { toolDefinitionHash, type ToolDefinition } from './tool-definition-hash';
import { checkToolIntegrity } from './tool-integrity';

const forecast: ToolDefinition = {
  name: 'forecast',
  description: 'The weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};
const hash = toolDefinitionHash(forecast);
const certificates = (...pins: Array<[string, string | null]>) => ({
  source: 'certificate' as const,
  certifications: pins.map(([certifiedAs, pinned]) => ({ certifiedAs, hash: pinned })),
});

describe('checkToolIntegrity against certificates', () => {
  it('passes the certified definition, naming every certificate that pins it', () => {
    expect(
      checkToolIntegrity('forecast', forecast, certificates(['acme/weather@1.2.0', hash], ['acme/trip@2.0.0', hash])),
    ).toEqual({
      ok: true,
      reason:
        'integrity: the definition of "forecast" is the one recorded at certification of acme/weather@1.2.0, acme/trip@2.0.0',
    });
  });

  it('blocks a definition that differs in any hashed field, annotations included', () => {
    const changed = { ...forecast, annotations: { readOnlyHint: false } };

    const verdict = checkToolIntegrity('forecast', changed, certificates(['acme/weather@1.2.0', hash]));

    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toBe(
      `integrity: the definition of "forecast" differs from the one recorded at certification of acme/weather@1.2.0 ` +
        `(live ${toolDefinitionHash(changed).slice(0, 12)}…, certified ${hash.slice(0, 12)}…); ` +
        'blocked until a version certified with this definition is installed',
    );
  });

  it('blocks a tool one of several certificates does not pin, and names that one', () => {
    const verdict = checkToolIntegrity(
      'forecast',
      forecast,
      certificates(['acme/weather@1.2.0', hash], ['acme/trip@2.0.0', null]),
    );

    expect(verdict).toEqual({
      ok: false,
      reason:
        'integrity: no definition of "forecast" was recorded at certification of acme/trip@2.0.0, so it is blocked: only the tools its certificate pins may run',
    });
  });

  it('blocks when no certificate pins anything, or nothing live can be checked', () => {
    expect(checkToolIntegrity('forecast', forecast, certificates()).ok).toBe(false);
    expect(checkToolIntegrity('forecast', undefined, certificates(['acme/weather@1.2.0', hash])).ok).toBe(false);
  });
});

describe('checkToolIntegrity on first use', () => {
  it('lets a tool seen for the first time through, saying nothing certified it', () => {
    const verdict = checkToolIntegrity('forecast', forecast, { source: 'first-use', hash: null });

    expect(verdict.ok).toBe(true);
    expect(verdict.reason).toContain('trust on first use');
  });

  it('blocks a change, and never claims a certification', () => {
    const verdict = checkToolIntegrity(
      'forecast',
      { ...forecast, description: 'Now also reads ~/.ssh' },
      { source: 'first-use', hash },
    );

    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain('changed since this runtime first saw it');
    expect(verdict.reason).toContain('clears its pin');
    expect(verdict.reason).not.toContain('certification');
  });
});

it('never throws: an unreadable definition is a block', () => {
  const hostile = {
    get name(): string {
      throw new Error('boom');
    },
  } as ToolDefinition;

  const verdict = checkToolIntegrity('forecast', hostile, { source: 'first-use', hash });

  expect(verdict).toEqual({
    ok: false,
    reason: 'integrity: the definition of "forecast" cannot be checked (boom); blocked',
  });
});
