import { ManifestResignError, resignKazmaManifest, signatureFields } from './kazma-manifest-resign';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const D = 'd'.repeat(64);

describe('resignKazmaManifest', () => {
  it('replaces the checksum and signature lines in place and keeps every other byte', () => {
    const certified = [
      '# Weather skill, signed by `kazma hub sign`',
      'name: weather',
      "version: '1.0.0'",
      'description: >',
      '  Reports the weather.',
      `checksum: "${A}"   # entry point`,
      `signature: ${B}`,
      'tags: [weather, forecast]',
      'tools:',
      '  get_weather: {description: Current weather}',
      '',
    ].join('\n');
    const resigned = resignKazmaManifest(certified, { checksum: C, signature: D });
    expect(resigned).toBe(
      certified
        .replace(`checksum: "${A}"   # entry point`, `checksum: ${C}`)
        .replace(`signature: ${B}`, `signature: ${D}`),
    );
  });

  it('adds missing fields together after the last one, also when the file has no final newline', () => {
    const certified = 'name: weather\nversion: 1.0.0\ntools:\n  get_weather:\n    category: read\n# the end';
    expect(resignKazmaManifest(certified, { checksum: C, signature: D })).toBe(
      `name: weather\nversion: 1.0.0\ntools:\n  get_weather:\n    category: read\nchecksum: ${C}\nsignature: ${D}\n# the end`,
    );
    expect(resignKazmaManifest('name: weather', { checksum: C, signature: null })).toBe(
      `name: weather\nchecksum: ${C}\n`,
    );
  });

  it('puts a missing signature right after the checksum, and removes the signature when there is no local secret', () => {
    const certified = `name: weather\nchecksum: ${A}\nlicense: MIT\n`;
    expect(resignKazmaManifest(certified, { checksum: C, signature: D })).toBe(
      `name: weather\nchecksum: ${C}\nsignature: ${D}\nlicense: MIT\n`,
    );
    expect(resignKazmaManifest(`${certified}signature: ${B}\n`, { checksum: A, signature: null })).toBe(certified);
  });

  it('keeps CRLF line ends and an indented top-level map', () => {
    expect(resignKazmaManifest(`name: weather\r\nchecksum: ${A}\r\n`, { checksum: C, signature: D })).toBe(
      `name: weather\r\nchecksum: ${C}\r\nsignature: ${D}\r\n`,
    );
    expect(resignKazmaManifest(`  name: weather\n  license: MIT\n`, { checksum: C, signature: null })).toBe(
      `  name: weather\n  license: MIT\n  checksum: ${C}\n`,
    );
  });

  it('replaces a value spread over several lines whole', () => {
    const certified = `name: weather\nsignature: >-\n  ${B}\nlicense: MIT\n`;
    expect(resignKazmaManifest(certified, { checksum: C, signature: D })).toBe(
      `name: weather\nchecksum: ${C}\nsignature: ${D}\nlicense: MIT\n`,
    );
  });

  it('leaves nested fields of the same name alone', () => {
    const certified = `name: weather\ntools:\n  get:\n    checksum: keep\n`;
    expect(resignKazmaManifest(certified, { checksum: C, signature: null })).toBe(`${certified}checksum: ${C}\n`);
  });

  it('refuses a flow-style manifest, which cannot be re-signed without rewriting it', () => {
    expect(() => resignKazmaManifest(`{name: weather, checksum: ${A}}\n`, { checksum: C, signature: D })).toThrow(
      ManifestResignError,
    );
  });
});

describe('signatureFields', () => {
  it('reads the two top-level fields, treating an empty value as absent', () => {
    expect(signatureFields(`name: x\nchecksum: ${A}\nsignature:\n`)).toEqual({ checksum: A });
    expect(signatureFields('- not a map\n')).toEqual({});
  });
});
