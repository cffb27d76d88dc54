/**
 * C12 text: everything a model will read, matched as the model reads it (NFKC, lookalikes folded,
 * hidden characters dropped): every text file of the bundle whatever its extension, every code
 * file (hidden characters) and its comments, every string of the parsed manifest (after YAML
 * unescaping, keys too), and every live tool, prompt and resource definition of the skill's
 * servers. Hidden text, escape sequences, instruction injection, secret requests and tool
 * poisoning fail; Markdown that a reader of the rendered page never sees is for review. The text
 * files are also read as one, in the order a model would read them (SKILL.md first): a phrase
 * split over the end of one file and the start of the next fails too.
 */
import type { Bundle, BundleFile } from '@skillhub/bundle';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import {
  describeHiddenText,
  excerptAt,
  findHiddenMarkdown,
  findHiddenText,
  findConcealedPayloads,
  findInjections,
  quoteForMessage,
  type HiddenKind,
  type HiddenMarkdownKind,
  type HiddenTextOptions,
  type InjectionRule,
  type ToolContext,
} from '@skillhub/text-analysis';
import { isSkip, parsedSkill, type Check, type CheckInput } from '../check';
import { isFailing, newFinding, type Finding, type Severity } from '../finding';
import type { LiveServerProbe } from '../live-server';
import { extensionOf, findFile, lineAtIndex, MAX_SCANNED_BYTES, scannedText } from '../scanned-text';
import { escapeRegExp, serverLocation } from './server-location';

/** A comment or docstring, as the code analyser hands it over. */
type CodeText = CheckInput['code']['analyses'][number]['comments'][number];

type TextRule =
  | 'hidden-unicode'
  | 'ansi-escape'
  | 'control-character'
  | InjectionRule
  | 'concealed-instructions'
  | 'anonymous-endpoint'
  | 'hidden-comment'
  | 'not-fully-scanned';

/** One text a model reads, and where findings about it point. */
interface Source {
  text: string;
  file: string | null;
  /** Starts the message: "The file", "The manifest field tools.x.description", "The description of tool …". */
  where: string;
  /** 1-based line of an offset into `text`, or null. */
  lineOf: (index: number) => number | null;
  /** How to look for hidden characters, or false when the raw file they came from was scanned already. */
  hidden: HiddenTextOptions | false;
  injections: boolean;
  /** Markdown: what the rendered page hides is for review. */
  markdown: boolean;
  /**
   * How an address at an anonymous endpoint is judged here: in prose it is for review; in code or
   * configuration it is where the skill sends its data. False where another source reads the text.
   */
  endpoints: Severity | false;
  /** Set for a tool's definition: tool-poisoning markers are looked for too. */
  tool?: ToolContext;
  /** Two files' texts joined at this offset: only what spans it is new. */
  boundary?: number;
}

/** Text files and source files: a page break and a leading byte-order mark are ordinary there. */
const FILE_TEXT: HiddenTextOptions = { allowFormFeed: true, allowLeadingBom: true };
const FIELD_TEXT: HiddenTextOptions = {};
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdx']);
/** Text for people to read; other text files (YAML, JSON, TOML, .env…) are what programs read. */
const PROSE_EXTENSIONS = new Set([...MARKDOWN_EXTENSIONS, '', '.txt', '.rst', '.adoc', '.org', '.html', '.htm']);
/**
 * Hosts of services whose purpose is an address anyone can open for themselves: tunnels to a
 * private machine and request catchers. Data sent there goes to an unknown party.
 */
const ANONYMOUS_ENDPOINT =
  /\bhttps?:\/\/(?:[a-z0-9-]+\.)*([a-z0-9-]+\.(?:ngrok(?:-free)?\.(?:io|app|dev)|ngrok\.io|trycloudflare\.com|loca\.lt|localtunnel\.me|serveo\.net|localhost\.run|lhr\.life|pipedream\.net|webhook\.site|requestbin\.(?:com|net)|hookbin\.com|beeceptor\.com|oast\.(?:fun|me|pro|site|live|online)|interact\.sh|burpcollaborator\.net|bore\.pub|tunnelmole\.net|share\.zrok\.io|serveousercontent\.com))\b/gi;

/** Findings listed per file; the last one listed says how many more there are. */
const MAX_FINDINGS_PER_FILE = 20;
/** How much of the end of one file and the start of the next is read as one text. */
const JOIN_REACH = 600;
/** Deeper manifest or schema values than this are not walked (C1 caps a manifest's size). */
const MAX_DEPTH = 64;

const RULE_OF_KIND: Partial<Record<HiddenKind, TextRule>> = {
  'escape-sequence': 'ansi-escape',
  'control-character': 'control-character',
};

const MARKUP_NAMES: Readonly<Record<HiddenMarkdownKind, string>> = {
  'html-comment': 'an HTML comment',
  'reference-comment': 'a Markdown comment (`[//]: #`)',
  'hidden-element': 'an HTML element hidden by its style',
};

const FIX_HINTS: Readonly<Record<TextRule, string>> = {
  'hidden-unicode':
    'Delete the invisible characters (retype the text around them): a model reads them though a reviewer cannot see them. Zero-width, bidirectional-control, tag, variation-selector, filler and private-use characters are never accepted outside emoji.',
  'ansi-escape':
    'Remove the escape sequence: text that hides, recolours or rewrites itself on a terminal is never accepted.',
  'control-character':
    'Remove the control character: only tab and line feed (in files also carriage return before a line feed, and form feed) are accepted.',
  'instruction-injection':
    'Remove the phrase: text a model reads must not override its instructions, switch its role or keep things from the user. To document an attack, quote it in a sentence that warns about it, or describe it instead.',
  'secret-request':
    'Remove the request: a skill never asks a model to read or send credentials, keys, secret files or the environment. Code that needs a secret reads the one it declares from its configuration.',
  'tool-poisoning':
    "Say what the tool does and nothing else: no hidden instruction blocks, no steps to take before it is used, no references to other servers' tools.",
  'concealed-instructions':
    'Write the instructions out: a payload the reader must decode, reassemble or decrypt before following it hides what it instructs from every reviewer.',
  'anonymous-endpoint':
    "Send data only to the service the skill says it works with, at that service's own address. In prose (a note on a local development setup) the address is for review, and a reviewer can clear it.",
  'hidden-comment':
    'Remove the hidden text or make it visible; if it is harmless (a note to maintainers), a reviewer can clear this finding.',
  'not-fully-scanned': `Split the text into files under ${MAX_SCANNED_BYTES} bytes.`,
};

export const textCheck: Check = {
  id: 'C12',
  decides: ['no_hidden_text', 'no_review_findings'],
  appliesToManifestOnly: true,
  run(input) {
    let sources: Source[];
    let truncated: Finding[] = [];
    if (input.manifestOnly) {
      // No files: the submitted manifest is all the text there is.
      const skill = parsedSkill(input);
      if (isSkip(skill)) return skill;
      sources = manifestSources(skill, input.bundle);
    } else {
      const files = fileSources(input);
      truncated = files.truncated;
      // Files first: a manifest field that repeats what its file showed is not reported again.
      sources = [
        ...files.sources,
        ...(input.skill ? manifestSources(input.skill, input.bundle) : []),
        ...liveSources(input),
        ...outputSources(input),
      ];
    }
    const findings = [...listed(sources.flatMap(scan)), ...truncated];
    return {
      findings,
      requirements: {
        no_hidden_text: !findings.some(isFailing),
        no_review_findings: !findings.some((finding) => finding.severity === 'medium'),
      },
    };
  },
};

// --- What is read ---------------------------------------------------------------------------------

/** Every text file whole, every code file for hidden characters, and every code comment; and the files cut short. */
function fileSources(input: CheckInput): { sources: Source[]; truncated: Finding[] } {
  const sources: Source[] = [];
  const truncated: Finding[] = [];
  for (const file of input.bundle.files) {
    const kind = input.code.kinds.get(file.path)?.kind;
    if (kind !== 'text' && kind !== 'code') continue;
    const { text, truncated: cut } = scannedText(file);
    if (cut) truncated.push(notFullyScanned(file));
    const markdown = kind === 'text' && MARKDOWN_EXTENSIONS.has(extensionOf(file.path));
    sources.push({
      text,
      file: file.path,
      where: 'The file',
      lineOf: (index) => lineAtIndex(text, index),
      hidden: FILE_TEXT,
      // A code file's text for a model is its comments, read below.
      injections: kind === 'text',
      markdown,
      endpoints: kind === 'text' && PROSE_EXTENSIONS.has(extensionOf(file.path)) ? 'medium' : 'high',
    });
  }
  for (const analysis of input.code.analyses) {
    if (analysis.comments.length > 0) sources.push(commentsSource(analysis.path, analysis.comments));
  }
  const texts = sources.filter((source) => source.file !== null && input.code.kinds.get(source.file)?.kind === 'text');
  return { sources: [...sources, ...joinedSources(texts)], truncated };
}

/**
 * The end of each text file joined to the start of the next, SKILL.md first and then by path: an
 * instruction split over two files is one to a model that reads them in turn.
 */
function joinedSources(texts: readonly Source[]): Source[] {
  const isSkill = (source: Source): boolean => /(?:^|\/)SKILL\.md$/i.test(source.file ?? '');
  const ordered = [...texts].sort(
    (a, b) => Number(isSkill(b)) - Number(isSkill(a)) || (a.file ?? '').localeCompare(b.file ?? ''),
  );
  return ordered.slice(1).map((next, at) => {
    const previous = ordered[at] as Source;
    const tail = previous.text.slice(-JOIN_REACH).trimEnd();
    const tailStart = previous.text.length - previous.text.slice(-JOIN_REACH).length;
    return {
      text: `${tail}\n${next.text.slice(0, JOIN_REACH).trimStart()}`,
      file: previous.file,
      where: `The end of the file, read on into ${quoteForMessage(next.file ?? '')},`,
      lineOf: (index) => previous.lineOf(tailStart + index),
      hidden: false,
      injections: true,
      markdown: false,
      endpoints: 'medium',
      boundary: tail.length,
    };
  });
}

/**
 * A code file's comments as one text (matching them one by one costs twenty times more on a file
 * with thousands): comments on consecutive lines run on, as a sentence wrapped over `#` lines
 * does; others are paragraphs of their own, so no phrase runs from one into the next.
 */
function commentsSource(file: string, comments: readonly CodeText[]): Source {
  const starts: number[] = [];
  let text = '';
  let nextLine = -1;
  for (const comment of comments) {
    if (text !== '') text += comment.line === nextLine ? '\n' : '\n\n';
    starts.push(text.length);
    text += comment.text;
    nextLine = comment.line + lineAtIndex(comment.text, comment.text.length);
  }
  const lineOf = (index: number): number => {
    let at = 0;
    for (let low = 0, high = starts.length - 1; low <= high;) {
      const middle = (low + high) >> 1;
      if ((starts[middle] as number) <= index) [at, low] = [middle, middle + 1];
      else high = middle - 1;
    }
    const comment = comments[at] as CodeText;
    return comment.line + lineAtIndex(comment.text, index - (starts[at] as number)) - 1;
  };
  // The code file's own text is read for endpoints (its comments included).
  return { text, file, where: 'A comment', lineOf, hidden: false, injections: true, markdown: false, endpoints: false };
}

/** Every string of the parsed manifest, keys included, as a model gets it (YAML escapes undone). */
function manifestSources(skill: NormalizedSkill, bundle: Bundle): Source[] {
  const manifestFile = findFile(bundle, skill.manifestPath);
  const raw = manifestFile ? scannedText(manifestFile).text : null;
  const declaredTools = skill.tools.map((tool) => tool.name);
  const sources: Source[] = [];
  walkStrings(skill.manifest, [], (text, path, isKey) => {
    const field = fieldName(path);
    const [top, tool, leaf] = path;
    const describesTool = !isKey && path.length === 3 && top === 'tools' && leaf === 'description';
    sources.push({
      text,
      file: skill.manifestPath,
      where: isKey
        ? `The manifest key ${quoteForMessage(text)}${field ? ` in ${field}` : ''}`
        : `The manifest field ${field}`,
      lineOf: () => (raw === null ? null : lineOfField(raw, isKey ? [...path, text] : path)),
      hidden: FIELD_TEXT,
      injections: true,
      markdown: false,
      endpoints: 'medium',
      tool: describesTool
        ? { server: '', siblings: declaredTools.filter((name) => name !== tool), others: [] }
        : undefined,
    });
  });
  return sources;
}

/** Each listed server's tools, prompts and resources: names, descriptions and schemas (tool poisoning). */
function liveSources(input: CheckInput): Source[] {
  const listedServers = input.liveServers.filter((probe) => probe.outcome === 'listed');
  return listedServers.flatMap((probe) => {
    const declared = input.skill?.mcpServers.find((server) => server.name === probe.server);
    const at = declared
      ? serverLocation(input.bundle, declared)
      : { file: input.skill?.manifestPath ?? null, line: null };
    const others = [
      ...listedServers.filter((other) => other !== probe).flatMap((other) => [other.server, ...toolNames(other)]),
      ...(input.skill?.mcpServers ?? []).map((server) => server.name).filter((name) => name !== probe.server),
    ];
    const server = quoteForMessage(probe.server);
    const sources: Source[] = [];
    const add = (value: unknown, what: string, self: string): void => {
      const context: ToolContext = {
        server: probe.server,
        siblings: toolNames(probe).filter((n) => n !== self),
        others,
      };
      walkStrings(value, [], (text, path) => {
        const detail = path.length > 0 ? ` (at ${fieldName(path)})` : '';
        sources.push({
          text,
          file: at.file,
          where: `${what} of server ${server}${detail}`,
          lineOf: () => at.line,
          hidden: FIELD_TEXT,
          injections: true,
          markdown: false,
          endpoints: 'medium',
          tool: context,
        });
      });
    };
    for (const tool of probe.tools) {
      const name = quoteForMessage(tool.name);
      add(tool.name, `The name of tool ${name}`, tool.name);
      add(tool.description, `The description of tool ${name}`, tool.name);
      add(tool.inputSchema, `The input schema of tool ${name}`, tool.name);
      add(tool.annotations, `The annotations of tool ${name}`, tool.name);
    }
    for (const prompt of probe.prompts) add(prompt, `Prompt ${quoteForMessage(prompt.name)}`, prompt.name);
    for (const resource of probe.resources) add(resource, `Resource ${quoteForMessage(resource.uri)}`, '');
    return sources;
  });
}

const toolNames = (probe: LiveServerProbe): string[] => probe.tools.map((tool) => tool.name);

/** What the skill's programs printed when the detonation ran them: the agent reads it next. */
function outputSources(input: CheckInput): Source[] {
  return (input.detonation?.outputs ?? []).map((output) => ({
    text: output.text,
    file: output.file,
    where: `What ${output.what} prints (run in the sandbox)`,
    lineOf: () => output.line,
    hidden: FIELD_TEXT,
    injections: true,
    markdown: false,
    endpoints: 'medium',
  }));
}

type Path = readonly (string | number)[];

/** Every string under `value` (map keys too, reported with `isKey`), depth-first. */
function walkStrings(value: unknown, path: Path, visit: (text: string, path: Path, isKey: boolean) => void): void {
  if (path.length > MAX_DEPTH) return;
  if (typeof value === 'string') visit(value, path, false);
  else if (Array.isArray(value)) value.forEach((item, index) => walkStrings(item, [...path, index], visit));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      visit(key, path, true);
      walkStrings(item, [...path, key], visit);
    }
  }
}

/** `tools.get_forecast.description`, `mcp_servers[0].command[2]`, `metadata["odd key"]`. */
function fieldName(path: Path): string {
  return path
    .map((step, at) =>
      typeof step === 'number'
        ? `[${step}]`
        : /^[A-Za-z_][\w-]{0,63}$/.test(step)
          ? `${at === 0 ? '' : '.'}${step}`
          : `[${JSON.stringify(step.slice(0, 64))}]`,
    )
    .join('');
}

/** The line of a manifest field in its YAML: each key of the path looked for after the one before. */
function lineOfField(raw: string, path: Path): number | null {
  let from = 0;
  let found: number | null = null;
  for (const step of path) {
    if (typeof step === 'number') continue;
    const key = new RegExp(`^[ \\t]*(?:-[ \\t]+)?["']?${escapeRegExp(step)}["']?[ \\t]*:`, 'm');
    const match = key.exec(raw.slice(from));
    // A key written in another way (a flow mapping, a quoted escape): the deepest one found is close enough.
    if (!match) break;
    from += match.index + match[0].length;
    found = from;
  }
  return found === null ? null : lineAtIndex(raw, found);
}

// --- What is found ---------------------------------------------------------------------------------

interface Found {
  rule: TextRule;
  severity: Severity;
  index: number;
  length: number;
  /** The same text found twice has the same signature: one finding, counted. */
  signature: string;
  /** After "contains": "a zero-width character (U+200B): "Extracts\u{200B} text"". */
  what: string;
}

interface Scanned {
  source: Source;
  found: Found;
  count: number;
}

function scan(source: Source): Scanned[] {
  const { text } = source;
  const found: Found[] = [];
  if (source.hidden) {
    for (const hidden of findHiddenText(text, source.hidden)) {
      const excerpt = quoteForMessage(excerptAt(text, hidden.index, hidden.length));
      found.push({
        rule: RULE_OF_KIND[hidden.kind] ?? 'hidden-unicode',
        severity: 'critical',
        index: hidden.index,
        length: hidden.length,
        signature: `${hidden.kind} ${hidden.codePoints.join(',')} ${hidden.decoded ?? ''} ${hidden.effect ?? ''}`,
        what: `${describeHiddenText(hidden)}: ${excerpt}`,
      });
    }
  }
  if (source.injections) {
    for (const injection of findInjections(text, { tool: source.tool, markdown: source.markdown })) {
      if (source.boundary !== undefined && !spans(injection, source.boundary)) continue;
      const quoted = quoteForMessage(text.slice(injection.index, injection.index + injection.length));
      found.push({
        rule: injection.rule,
        severity: 'critical',
        index: injection.index,
        length: injection.length,
        signature: `${injection.rule} ${injection.matched}`,
        what: `${injection.label}: ${quoted}`,
      });
    }
  }
  if (source.injections) {
    for (const concealed of findConcealedPayloads(text)) {
      if (
        source.boundary !== undefined &&
        !spans({ index: concealed.index, length: concealed.instruction.length }, source.boundary)
      )
        continue;
      found.push({
        rule: 'concealed-instructions',
        severity: 'critical',
        index: concealed.index,
        length: concealed.instruction.length,
        signature: `concealed ${concealed.instruction}`,
        what: `instructions to ${concealed.instruction.toLowerCase()} ${concealed.payload} and act on the result, which hides what the reader is told to do`,
      });
    }
  }
  if (source.endpoints) {
    for (const endpoint of text.matchAll(ANONYMOUS_ENDPOINT)) {
      if (
        source.boundary !== undefined &&
        !spans({ index: endpoint.index, length: endpoint[0].length }, source.boundary)
      )
        continue;
      found.push({
        rule: 'anonymous-endpoint',
        severity: source.endpoints,
        index: endpoint.index,
        length: endpoint[0].length,
        signature: `endpoint ${endpoint[1]}`,
        what: `an address at ${quoteForMessage(endpoint[1] as string)}, an anonymous tunnel or request-capture service: whoever runs it receives what is sent there, and nothing says who that is`,
      });
    }
  }
  if (source.markdown) {
    for (const markup of findHiddenMarkdown(text)) {
      const end = markup.index + markup.length;
      // What is inside trips its own rule, which says more than "hidden".
      if (found.some((other) => other.index >= markup.index && other.index < end)) continue;
      found.push({
        rule: 'hidden-comment',
        severity: 'medium',
        index: markup.index,
        length: markup.length,
        signature: `${markup.kind} ${markup.content}`,
        what: `${MARKUP_NAMES[markup.kind]}, which a reader of the rendered page never sees: ${quoteForMessage(markup.content.trim(), 60)}`,
      });
    }
  }
  const grouped = new Map<string, Scanned>();
  for (const item of found.sort((a, b) => a.index - b.index)) {
    const same = grouped.get(item.signature);
    if (same) same.count++;
    else grouped.set(item.signature, { source, found: item, count: 1 });
  }
  return [...grouped.values()];
}

const spans = (found: { index: number; length: number }, offset: number): boolean =>
  found.index < offset && found.index + found.length > offset;

/** One finding per text and place (a manifest field repeats what its file said), at most MAX_FINDINGS_PER_FILE per file. */
function listed(scanned: readonly Scanned[]): Finding[] {
  const seen = new Set<string>();
  const perFile = new Map<string, Finding[]>();
  const unlisted = new Map<string, number>();
  for (const { source, found, count } of scanned) {
    const key = `${source.file ?? ''} ${found.signature}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const file = source.file ?? '';
    const list = perFile.get(file) ?? [];
    perFile.set(file, list);
    if (list.length >= MAX_FINDINGS_PER_FILE) {
      unlisted.set(file, (unlisted.get(file) ?? 0) + 1);
      continue;
    }
    const times = count > 1 ? ` It occurs ${count} times.` : '';
    list.push(
      newFinding({
        check: 'C12',
        code: found.rule,
        severity: found.severity,
        file: source.file,
        line: source.lineOf(found.index),
        message: `${source.where} contains ${found.what}.${times}`,
        fixHint: FIX_HINTS[found.rule],
      }),
    );
  }
  for (const [file, more] of unlisted) {
    const list = perFile.get(file) as Finding[];
    const last = list[list.length - 1] as Finding;
    list[list.length - 1] = {
      ...last,
      message: `${last.message} ${more} more findings of this check in the file are not listed.`,
    };
  }
  return [...perFile.values()].flat();
}

function notFullyScanned(file: BundleFile): Finding {
  return newFinding({
    check: 'C12',
    code: 'not-fully-scanned',
    severity: 'high',
    file: file.path,
    message: `The file is ${file.content.length} bytes; only its first ${MAX_SCANNED_BYTES} were scanned for hidden text.`,
    fixHint: FIX_HINTS['not-fully-scanned'],
  });
}
