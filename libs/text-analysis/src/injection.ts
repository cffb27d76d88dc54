/**
 * Instruction injection in text a model reads, in any wording: phrases are built from classes of
 * verbs, determiners, adjectives and objects rather than listed as sentences, and matched on the
 * normalised text (so fullwidth, lookalike and zero-width-split spellings match too). Ordinary
 * skill text is full of instructions ("Ignore files in node_modules", "Never share API keys"), so
 * each phrase needs what makes it hostile: an object that is the model's own instructions, a
 * secret of the user's machine, a destination, a quantifier, and no negation before it.
 *
 * The same classes are matched in the most used languages (languages.ts), in leetspeak, inside
 * encoded runs (base64, hex, rot13 …, two levels deep), in the parts of Markdown read apart from
 * its prose, and in image and link URLs that template the conversation. A phrase quoted in a
 * sentence that warns about it, in a text about attacks, is cited, not given.
 */
import { findDecodedRuns, type Encoding } from './encoded';
import { type PhraseClass } from './languages';
import { findExfiltrationUrls, findMarkdownParts } from './markdown-parts';
import { normalizeText, sourceSpan, type NormalizedText } from './normalize';
import { findPhrases } from './phrases';

export type InjectionRule = 'instruction-injection' | 'secret-request' | 'tool-poisoning';

export interface InjectionFinding {
  rule: InjectionRule;
  /** What was found, for a message: "an instruction to ignore earlier instructions". */
  label: string;
  /** UTF-16 offset and length of the match in the source text. */
  index: number;
  length: number;
  /**
   * The match as normalised, white space collapsed ("ignore all previous instructions"): the same
   * phrase twice has the same value, wrapped over lines (a folded YAML field and its raw file) or not.
   */
  matched: string;
}

/** What a tool description is read against. */
export interface ToolContext {
  /** The server the tool belongs to. */
  server: string;
  /** The server's other tools: naming them ("call list_tables first") is ordinary. */
  siblings: readonly string[];
  /** Tools and names of other servers: naming them in a description is tool shadowing. */
  others: readonly string[];
}

export interface InjectionOptions {
  /** Set for a tool's description (or its schema's): tool-poisoning markers are then looked for too. */
  tool?: ToolContext;
  /** The text is Markdown: titles, alt text, comments and front-matter values are also read on their own. */
  markdown?: boolean;
}

// --- Building blocks ------------------------------------------------------------------------------

/**
 * Between two words: punctuation, spaces, a single line break, Markdown emphasis or an inline
 * HTML tag (`ignore <b>all</b> previous`), never a sentence end or a blank line.
 */
const S = String.raw`(?:[^a-z0-9<.!?\n]|\n(?!\n)|<[^<>\n]{0,80}>|<){1,12}`;
/** Word boundaries on the normalised text. */
const B = '(?<![a-z0-9])';
const E = '(?![a-z0-9])';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One of `phrases`; spaces in a phrase stand for any separator, an apostrophe for an optional one. */
function words(...lists: readonly (readonly string[])[]): string {
  const phrases = [...new Set(lists.flat())].sort((a, b) => b.length - a.length);
  const alternatives = phrases.map((phrase) =>
    phrase
      .split(' ')
      .map((word) => word.split("'").map(escapeRegExp).join(`(?:${S})?`))
      .join(S),
  );
  return `(?:${alternatives.join('|')})`;
}

/** Up to `max` more words of a class, each after a separator. */
const more = (part: string, max: number): string => `(?:${S}${part}){0,${max}}`;

/**
 * Up to `max` words that keep a verb and its object in one clause (no preposition, conjunction or
 * negation between); as few as possible, so the nearest object is the one matched.
 */
const gap = (max: number): string => `(?:${S}(?!${STOP}${E})[a-z0-9]+){0,${max}}?`;

// prettier-ignore
const STOP = words([
  'using', 'with', 'via', 'by', 'through', 'from', 'in', 'into', 'to', 'for', 'as', 'on', 'at', 'and', 'or',
  'when', 'if', 'then', 'but', 'so', 'that', 'which', 'without', 'after', 'before', 'instead', 'because', 'while',
  'unless', 'onto', 'inside', 'within', 'under', 'over', 'than', 'like', 'is', 'are', 'was', 'were', 'be', 'been',
  'not', 'never', 'no',
]);

// --- Vocabulary -------------------------------------------------------------------------------

// prettier-ignore
const IGNORE = [
  'ignore', 'ignores', 'ignored', 'ignoring', 'disregard', 'disregards', 'disregarded', 'disregarding', 'forget',
  'forgets', 'forgetting', 'forgot', 'neglect', 'neglecting', 'abandon', 'abandoning', 'discard', 'discarding',
  'pay no attention to', 'paying no attention to', 'pay no heed to', 'do not follow', "don't follow", 'do not obey',
  "don't obey", 'stop following', 'stop obeying', 'no longer follow', 'no longer obey', 'cease following',
  'set aside', 'throw out', 'throw away', 'erase', 'unlearn',
];
// prettier-ignore
const OVERRIDE = [
  'override', 'overrides', 'overriding', 'overwrite', 'bypass', 'bypasses', 'bypassing', 'circumvent',
  'circumventing', 'skip', 'skipping', 'drop', 'dropping', 'get around', 'work around', 'evade', 'evading',
  'disable', 'disabling', 'turn off', 'deactivate', 'remove',
];
// prettier-ignore
const DETERMINERS = [
  'all', 'any', 'every', 'each', 'the', 'your', 'my', 'these', 'those', 'of', 'our', 'its', 'their', 'such', 'this',
  'that', 'entire', 'whole', 'full', 'both',
];
/** Determiners that make "instructions" the model's own rather than some document's. */
const QUANTIFIERS = ['all', 'any', 'every', 'each', 'of', 'your', 'my'];
// prettier-ignore
const PRIOR = [
  'previous', 'previously given', 'prior', 'above', 'earlier', 'preceding', 'foregoing', 'former', 'aforementioned',
  'past', 'old', 'older', 'above mentioned', 'last',
];
// prettier-ignore
const SYSTEM = [
  'system', 'developer', 'safety', 'ethical', 'moral', 'content', 'hidden', 'openai', 'anthropic', 'original',
  'initial',
];
/** Adjectives that point at the model's instructions only together with the word "instructions". */
const OTHER = ['existing', 'other', 'given', 'current', 'first', 'built in', 'default'];
// prettier-ignore
const ADJECTIVES = [
  ...PRIOR, ...SYSTEM, ...OTHER, 'provided', 'stated', 'listed', 'mentioned', 'written', 'set', 'specified', 'defined',
  'received', 'user', 'programmed', 'hard coded', 'explicit', 'implicit',
];
// prettier-ignore
const INSTRUCTIONS = [
  'instructions', 'instruction', 'directives', 'directive', 'prompts', 'prompt', 'system prompt', 'system message',
  'guidelines', 'guideline', 'guardrails', 'guardrail', 'programming', 'training', 'instruction set', 'conditioning',
  'safety settings',
];
// prettier-ignore
const RULES = [
  'rules', 'rule', 'directions', 'orders', 'constraints', 'restrictions', 'limitations', 'policies', 'policy',
  'guidance', 'commands', 'boundaries', 'filters', 'safeguards', 'protocols', 'principles', 'ethics', 'protections',
  'content policy', 'terms',
];
// prettier-ignore
const CONTEXT = [
  'context', 'messages', 'message', 'conversation', 'text', 'input', 'inputs', 'content', 'prompting',
  'chat history', 'history', 'tasks', 'task', 'everything',
];
/** What follows "ignore all instructions" in a defence ("… found in web pages"), not in an attack. */
// prettier-ignore
const QUALIFIED = `(?!${S}(?:${words([
  'in', 'inside', 'within', 'from', 'embedded', 'found', 'contained', 'that', 'which', 'coming', 'appearing',
  'present', 'written', 'returned', 'on', 'of', 'below', 'hidden', 'if', 'when', 'unless', 'for', 'except', 'by',
  'there', 'here', 'about', 'during', 'while', 'after', 'before', 'at', 'as', 'you find', 'you see', 'you encounter',
  'you read', 'you receive', 'you get', 'you come',
])})${E})`;
// prettier-ignore
const VOID = [
  'void', 'null', 'null and void', 'cancelled', 'canceled', 'revoked', 'obsolete', 'invalid', 'superseded',
  'overridden', 'replaced', 'outdated', 'rescinded', 'suspended', 'lifted', 'withdrawn', 'no longer valid',
  'no longer apply', 'no longer applies', 'no longer in effect', 'do not apply', "don't apply", 'no longer matter',
  'no longer relevant', 'not valid',
];
// prettier-ignore
const AGENTS = [
  'ai', 'assistant', 'ai assistant', 'model', 'language model', 'agent', 'bot', 'chatbot', 'llm', 'persona',
  'character', 'entity',
];
// prettier-ignore
const MODES = [
  'developer', 'dan', 'god', 'jailbreak', 'jailbroken', 'unrestricted', 'unfiltered', 'uncensored', 'evil', 'sudo',
  'override', 'unlocked',
];
const JAILBREAK_MODES = ['dan', 'god', 'jailbreak', 'jailbroken', 'unrestricted', 'evil', 'unfiltered', 'uncensored'];
// prettier-ignore
const UNRESTRICTED = [
  'unrestricted', 'unfiltered', 'uncensored', 'jailbroken', 'evil', 'freed', 'liberated', 'unbound', 'unchained',
  'unlocked', 'dan', 'stan', 'dude', 'amoral', 'rogue', 'sentient', 'self aware',
];
// prettier-ignore
const LIMITS = [
  'restrictions', 'restriction', 'limitations', 'filters', 'filtering', 'rules', 'guidelines', 'censorship', 'ethics',
  'morals', 'morality', 'safety', 'guardrails', 'boundaries', 'constraints', 'policies', 'safeguards', 'moderation',
  'principles', 'programming', 'restraints', 'content policy',
];
const YOU_ARE = `you(?:${S}are|(?:${S})?re)`;
// prettier-ignore
const NEGATIVE = [
  'do not', "don't", 'never', 'must not', 'should not', "shouldn't", "mustn't", 'cannot', "can't", 'may not',
  'shall not', 'will not', "won't", 'avoid', 'refrain from',
];
const THE_USER = `(?:the${S})?${words(['user', 'users', 'human', 'operator', 'person', 'customer', 'owner', 'requester', 'end user'])}`;
// prettier-ignore
const SEND = [
  'send', 'sends', 'sent', 'sending', 'upload', 'uploads', 'uploaded', 'uploading', 'post', 'posts', 'posted',
  'posting', 'email', 'emails', 'emailed', 'emailing', 'e mail', 'mail', 'mails', 'mailed', 'exfiltrate',
  'exfiltrates', 'exfiltrated', 'exfiltrating', 'exfil', 'transmit', 'transmits', 'transmitted', 'transmitting',
  'forward', 'forwards', 'forwarded', 'forwarding', 'leak', 'leaks', 'leaked', 'leaking', 'share', 'shares',
  'shared', 'sharing', 'submit', 'submits', 'submitted', 'smuggle', 'smuggles', 'steal', 'steals', 'stealing',
  'harvest', 'harvests', 'harvesting', 'beacon', 'transfer', 'transfers', 'transferring',
];
/** Verbs that are hostile with any secret: nobody leaks a key by accident of wording. */
const STEAL = /^(?:exfil|leak|steal|harvest|smuggl)/;
// prettier-ignore
const INCLUDE = [
  'include', 'includes', 'including', 'append', 'appends', 'appending', 'attach', 'attaches', 'attaching', 'embed',
  'embeds', 'embedding', 'insert', 'inserts', 'inserting', 'paste', 'pastes', 'reveal', 'reveals', 'revealing',
  'disclose', 'discloses', 'disclosing', 'expose', 'exposes', 'exposing', 'encode',
];
/**
 * Reading a secret file is hostile on its own. Imperative forms (and "returns", as tool descriptions
 * speak), so that "boto3 reads ~/.aws/credentials", which describes code, is not one.
 */
// prettier-ignore
const READ = [
  'read', 'cat', 'access', 'print', 'output', 'show', 'display', 'dump', 'list', 'get', 'fetch', 'grab', 'collect',
  'extract', 'copy', 'retrieve', 'obtain', 'look at', 'view', 'inspect', 'examine', 'parse', 'type out', 'echo',
  'return', 'returns',
];
// prettier-ignore
const EXFIL_ACTIONS = [
  'send', 'sends', 'upload', 'uploads', 'post', 'posts', 'email', 'e mail', 'mail', 'forward', 'transmit',
  'exfiltrate', 'leak', 'share', 'collect', 'copy', 'invoke', 'include', 'append', 'attach', 'inject', 'report',
  'beacon', 'transfer', 'sync',
];
// prettier-ignore
const ACTIONS = [
  ...EXFIL_ACTIONS, 'call', 'read', 'run', 'add', 'modify', 'change', 'replace', 'delete', 'install', 'download',
  'record', 'log', 'save', 'store', 'write', 'fetch', 'access', 'open', 'create', 'execute', 'insert', 'remove',
];

/**
 * `echo "=== Keychain state ==="`: a program that prints a quoted string prints that text; naming a
 * secret store inside it reads nothing.
 */
function printsLabel(text: string, match: RegExpExecArray): boolean {
  const verb = match[1] ?? '';
  if (!/^(?:echo|print|printf|display|show|output)$/.test(verb)) return false;
  const after = text.slice(match.index + match[0].indexOf(verb) + verb.length);
  return /^\s*(?:-\w+\s+)?["']/.test(after);
}

/** Files and paths that hold a user's secrets. */
const SECRET_FILE = [
  String.raw`(?<![a-z0-9_])(?:(?:~|\$home|%userprofile%|/home/[a-z0-9_-]+|/root|/users/[a-z0-9_-]+)/)?\.ssh(?![a-z0-9_-])(?!/(?:config|known_hosts|[a-z0-9_.-]*\.pub)(?![a-z0-9_.-]))(?:/[a-z0-9_.-]*[a-z0-9_-])?`,
  `${B}ssh${S}(?:directory|folder|dir)${E}`,
  String.raw`${B}id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?![a-z0-9_]|\.pub)`,
  String.raw`(?<![a-z0-9_])(?:~/)?\.aws(?![a-z0-9_-])(?!/config(?![a-z0-9_.-]))(?:/credentials)?`,
  String.raw`${B}aws_(?:secret_access_key|session_token)${E}`,
  String.raw`(?<![a-z0-9_-])(?:(?:~/)?\.(?:cursor|vscode|codeium|windsurf|claude)/)?mcp\.json${E}`,
  String.raw`${B}claude_desktop_config\.json${E}`,
  String.raw`(?<![a-z0-9_])(?:~/)?\.claude\.json${E}`,
  String.raw`(?<![a-z0-9_.-])\.env(?:\.(?:local|production|prod|development|dev|staging|test))?(?![a-z0-9_-])(?!\.[a-z0-9])`,
  String.raw`(?<![a-z0-9_])(?:~/)?\.(?:netrc|npmrc|pypirc|git-credentials|pgpass|gnupg|bash_history|zsh_history|docker/config\.json|kube/config)(?![a-z0-9_-])`,
  String.raw`${B}(?:kubeconfig|keychain|wallet\.dat)${E}`,
  String.raw`/etc/(?:shadow|gshadow|sudoers)${E}`,
  `${B}login${S}data${E}`,
].join('|');
/** Secrets that no ordinary text sends anywhere. */
const SENSITIVE = `${B}(?:(?:private|signing)${S}keys?|(?:seed|recovery|mnemonic)${S}phrases?|(?:browser|session|auth|authentication|login)${S}cookies)${E}`;
// prettier-ignore
const TOKEN_KINDS = [
  'access', 'auth', 'authentication', 'api', 'session', 'bearer', 'github', 'gh', 'gitlab', 'oauth', 'refresh',
  'npm', 'pypi', 'slack', 'discord', 'telegram', 'personal access', 'secret', 'jwt', 'id', 'openai', 'anthropic',
  'huggingface', 'hf', 'service account',
];
/** Secrets that ordinary setup text mentions ("send your API key in the header"): hostile only with more. */
const SECRET = `${B}(?:api${S}?keys?|apikeys?|${words(['secret', 'access', 'ssh', 'encryption', 'master', 'license', 'gpg', 'pgp', 'deploy'])}${S}keys?|${words(TOKEN_KINDS)}${S}tokens?|passwords?|passwd|passphrases?|pass${S}phrases?|credentials?|creds|secrets?|cookies?|client${S}secrets?|(?:environment|env)${S}(?:variables?|vars?)|envvars)${E}`;
/** The whole environment, which is never sent for a good reason. */
const WHOLE_ENVIRONMENT = /^(?:os\.environ|process\.env)$/;
const SECRET_OR_ENVIRONMENT = `(?:${SECRET}|${B}os\\.environ${E}(?![.\\[])|${B}process\\.env${E}(?![.\\[]))`;
// prettier-ignore
const QUANTIFIED = new RegExp(
  `${B}${words([
    'all', 'any', 'every', 'each', 'user', 'users', 'their', 'other', 'others', 'stored', 'saved', 'available',
    'found', 'local', 'existing', 'his', 'her', 'whole', 'entire', 'full', 'complete', 'known', 'remaining',
    'discovered', 'collected', 'cached',
  ])}${E}`,
);
/** Where a secret should not go: an address, "to me", or the model's own output that others read. */
const DESTINATION = new RegExp(
  [
    String.raw`https?:|www\.|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]{2,}`,
    String.raw`${B}(?:webhooks?|pastebin|requestbin|ngrok|pipedream|burpcollaborator|interact\.sh|hookbin|webhook\.site)`,
    `${B}to${S}(?:me|us|this|the${S}following|my|our|an${S}external|a${S}remote|an${S}attacker|the${S}attacker|attacker|a${S}third${S}party|external|remote)${E}`,
    `${B}(?:in|into|to|inside|within)${S}(?:(?:your|the|a|an|this|every|each)${S})?(?:response|reply|answer|output|message|comment|issue|commit|pull${S}request|summary|report|chat|image|markdown${S}image|link${S}text)${E}`,
  ].join('|'),
);
/** How an API is authenticated, which setup text describes. */
const AUTHENTICATION = new RegExp(
  `${B}(?:header|headers|authorization|bearer|query${S}(?:string|parameter|param)|request|requests|x${S}api${S}key|basic${S}auth|auth|environment${S}variable|env${S}var|config|configuration|settings|\\.env|field|parameter|param|body|argument|payload|login|sign${S}in|form|cli|flag|option)${E}`,
);
const PLURAL_SECRET = /(?:s|creds)$/;

// --- Rules --------------------------------------------------------------------------------------

interface MatchContext {
  text: string;
  match: RegExpExecArray;
  tool: ToolContext | undefined;
}

interface Rule {
  rule: InjectionRule;
  label: string;
  patterns: readonly RegExp[];
  /** A negation just before the match ("never share API keys") makes it benign. */
  negatable?: boolean;
  /** Only in tool descriptions. */
  toolOnly?: boolean;
  accept?: (context: MatchContext) => boolean;
  /** Where the finding ends, when more than the match is the finding (a whole `<IMPORTANT>` block). */
  end?: (context: MatchContext) => number;
}

const IGNORE_EARLIER = 'an instruction to ignore earlier instructions';
const ROLE_SWITCH = 'a role switch';
const KEEP_FROM_USER = 'an instruction to keep something from the user';
const SECRET_REQUEST = 'a request to read or send secrets';

// One expression per alternative: V8 scans a long top-level alternation ten times slower than its parts.
const rule = ({ pattern, ...spec }: Omit<Rule, 'patterns'> & { pattern: string | readonly string[] }): Rule => ({
  ...spec,
  patterns: (typeof pattern === 'string' ? [pattern] : pattern).map((source) => new RegExp(source, 'g')),
});

const RULES_IN_ORDER: readonly Rule[] = [
  rule({
    rule: 'instruction-injection',
    label: IGNORE_EARLIER,
    negatable: true,
    pattern: [
      `${B}${words(IGNORE)}${more(words(DETERMINERS), 3)}${S}${words(PRIOR)}${more(words(ADJECTIVES), 2)}${S}${words(INSTRUCTIONS, RULES, CONTEXT)}${E}`,
      `${B}${words(IGNORE)}${more(words(DETERMINERS), 3)}${S}${words(SYSTEM)}${more(words(ADJECTIVES), 2)}${S}${words(INSTRUCTIONS, RULES)}${E}`,
      `${B}${words(IGNORE)}${more(words(DETERMINERS), 3)}${S}${words(OTHER)}${more(words(ADJECTIVES), 2)}${S}${words(INSTRUCTIONS)}${E}`,
      `${B}${words(IGNORE)}${more(words(QUANTIFIERS), 3)}${S}${words(INSTRUCTIONS)}${E}${QUALIFIED}`,
      `${B}${words(IGNORE)}${S}your${more(words(ADJECTIVES), 2)}${S}${words(RULES)}${E}`,
      `${B}${words(IGNORE, OVERRIDE)}${more(words(DETERMINERS), 2)}${S}${words(['everything', 'anything', 'all', 'what', 'whatever', 'all that'])}(?:${S}(?:that|which))?${S}you${more(words(['were', 'have', 'had', 've', 'been', 'are', 'was', 'got', 'just', 'previously', 'already', 'd']), 3)}${S}${words(['told', 'given', 'instructed', 'taught', 'asked', 'shown', 'know', 'learned', 'learnt', 'received', 'read'])}${E}`,
      `${B}${words(IGNORE, OVERRIDE)}${more(words(DETERMINERS), 3)}${S}${words(INSTRUCTIONS, RULES)}(?:${S}(?:that|which))?${S}you${more(words(['were', 'have', 'had', 've', 'been', 'got', 'just', 'previously', 'already']), 3)}${S}${words(['told', 'given', 'taught', 'shown', 'provided', 'received'])}${E}`,
      `${B}${words(IGNORE)}${S}${words(['the', 'everything', 'all', 'anything', 'all of the', 'what', 'whatever', 'that'])}${more(words(['that', 'which', 'is', 'was', 'been', 'has been', 'written', 'said', 'stated', 'mentioned', 'given', 'listed', 'provided', 'i said', 'we said']), 2)}${S}${words(['above', 'before this', 'so far', 'until now', 'up to now', 'up to this point', 'prior to this', 'previously', 'earlier'])}${E}(?=[^a-z0-9]*(?:[.!?;:\\n]|$)|${S}${words(['and', 'then', 'instead', 'now', 'completely', 'entirely', 'altogether', 'from now on', 'as well', 'too'])}${E})`,
      // Overriding verbs are ordinary ("skip the previous steps", "override existing rules"): only the model's own instructions count.
      `${B}${words(OVERRIDE)}${more(words(DETERMINERS), 3)}${S}${words(['system', 'safety', 'developer', 'ethical', 'moral', 'content'])}${more(words(ADJECTIVES), 1)}${S}${words(INSTRUCTIONS, RULES)}${E}`,
      `${B}${words(OVERRIDE)}${S}${words(['all', 'any', 'every', 'your'])}${more(words(DETERMINERS), 2)}${more(words(ADJECTIVES), 2)}${S}${words(INSTRUCTIONS)}${E}${QUALIFIED}`,
      `${B}${words(OVERRIDE)}${S}your${more(words(ADJECTIVES), 2)}${S}${words(RULES)}${E}`,
    ],
  }),
  rule({
    rule: 'instruction-injection',
    label: 'a statement that earlier instructions no longer hold',
    pattern: `${B}${words(PRIOR)}${more(words(ADJECTIVES), 2)}${S}${words(INSTRUCTIONS)}${more(words(['are', 'is', 'were', 'have', 'has', 'been', 'now', 'hereby', 'henceforth', 'all']), 3)}${S}${words(VOID)}${E}(?![^a-z0-9<.!?\\n;:]{1,12}${words(['to', 'for', 'in', 'on', 'when', 'if', 'because', 'with'])}${E})`,
  }),
  rule({
    rule: 'instruction-injection',
    label: 'a replacement system prompt',
    pattern: [
      `${B}${words(['new', 'updated', 'real', 'actual', 'true', 'revised', 'secret', 'hidden', 'replacement', 'override', 'overriding'])}${S}system${S}${words(['prompt', 'instructions', 'message', 'directive', 'directives', 'rules'])}${E}`,
      `${B}system${S}prompt${S}${words(['override', 'overridden', 'update', 'updated', 'change', 'changed', 'replaced'])}${E}`,
    ],
  }),
  rule({
    rule: 'instruction-injection',
    label: ROLE_SWITCH,
    pattern: [
      `${B}${YOU_ARE}${S}now${S}(?:(?:a|an|the|my)${S})?${words(UNRESTRICTED)}${E}`,
      `${B}${YOU_ARE}${S}now${S}(?:a|an)${S}${words(['different', 'new', 'another', 'other'])}${S}${words(AGENTS)}${E}`,
      `${B}${YOU_ARE}${S}now${S}(?:a|an)${S}${words(AGENTS)}${S}${words(['that', 'who', 'which', 'with', 'without', 'called', 'named', 'free', 'capable', 'able', 'designed', 'programmed'])}${E}`,
      `${B}${YOU_ARE}${S}now${S}${words(['no longer', 'not bound', 'free from', 'free of', 'free to', 'unbound', 'released', 'operating as', 'acting as', 'playing', 'going to act', 'going to pretend', 'roleplaying', 'role playing', 'my'])}${E}`,
      `${B}${YOU_ARE}(?:${S}now)?${S}${words(['in', 'operating in', 'running in', 'entering', 'in the', 'now in'])}${S}${words(MODES)}${S}mode${E}`,
      `${B}${YOU_ARE}(?:${S}now)?${S}no${S}longer${S}(?:${words(['bound', 'restricted', 'limited', 'constrained', 'governed', 'censored', 'filtered', 'required to', 'subject to', 'obligated', 'obliged', 'beholden', 'claude', 'chatgpt', 'gpt'])}|an?${S}${words(AGENTS)})${E}`,
      `${B}from${S}now${S}on${S}(?:you(?:${S}${words(['will', 'must', 'shall', 'are', 'have to', 'need to', 'should', 'can only', 'may only', 'are going to'])})?${S}${words(['act', 'behave', 'respond', 'answer', 'reply', 'ignore', 'obey', 'only', 'always', 'never', 'pretend', 'be', 'roleplay', 'operate', 'refuse', 'comply', 'disregard', 'forget', 'no longer', 'are', 'speak', 'talk', 'identify', 'call yourself', 'work for'])}|${words(['act', 'behave', 'respond', 'answer', 'reply', 'ignore', 'obey', 'pretend', 'disregard', 'forget', 'roleplay', 'you are', "you're", 'your name is', 'call yourself', 'speak as', 'only obey', 'only follow'])})${E}`,
      `${B}${words(['act', 'acting', 'behave', 'behaving', 'pretend', 'pretending', 'roleplay', 'role play', 'operate', 'operating', 'respond', 'responding', 'answer', 'answering', 'simulate', 'simulating', 'become', 'becoming', 'you are', "you're", 'function as', 'functioning as', 'reply', 'replying'])}${E}[^.!?\\n]{0,80}?${B}${words(['without', 'with no', 'free of', 'free from', 'ignoring', 'unbound by', 'not bound by', 'no longer bound by', 'unconstrained by', 'regardless of', 'unrestricted by', 'outside of'])}${more(words(['any', 'all', 'your', 'the', 'ethical', 'moral', 'content', 'safety', 'usual', 'normal', 'typical', 'openai', 'anthropic', 'built in', 'of', 'kind of', 'sort of', 'type of']), 3)}${S}${words(LIMITS)}${E}`,
      `${B}${words(['unrestricted', 'unfiltered', 'uncensored', 'jailbroken', 'jailbreak', 'amoral'])}${S}${words(['ai', 'assistant', 'mode', 'chatbot', 'llm', 'persona', 'character', 'gpt', 'claude', 'chatgpt', 'bot'])}${E}`,
      `${B}do${S}anything${S}now${E}`,
      `${B}${words(['you are', "you're", 'act as', 'acting as', 'pretend to be', 'pretend you are', 'become', 'you will be', 'roleplay as', 'role play as'])}${S}${words(['dan', 'stan', 'dude'])}${E}`,
      `${B}${words(JAILBREAK_MODES)}${S}mode${more(words(['is', 'has been', 'now']), 2)}${S}${words(['enabled', 'activated', 'on', 'engaged', 'unlocked'])}${E}`,
      `${B}${words(['enable', 'activate', 'enter', 'engage', 'turn on', 'switch to', 'switch into', 'unlock', 'entering', 'enabling', 'activating'])}(?:${S}the)?${S}${words(JAILBREAK_MODES)}${S}mode${E}`,
      `${B}${words(['ai', 'assistant', 'model', 'chatgpt', 'claude', 'gpt', 'llm', 'you'])}${S}with${S}${words(['developer', 'dan', 'jailbreak', 'god'])}${S}mode${E}`,
    ],
  }),
  rule({
    rule: 'instruction-injection',
    label: 'a chat-template or system-prompt marker',
    pattern: [
      String.raw`<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id|begin_of_text)\|>`,
      String.raw`\[/?inst\]|<</?sys>>|\[/?system(?: ?(?:message|prompt))?\](?!\()`,
      String.raw`</?system(?:[_ -]?(?:prompt|message|instructions?))?(?:\s[^<>]{0,80})?>`,
      String.raw`(?:^|\n)#{2,6} ?system(?: (?:prompt|message|instructions))? ?:?(?=\n|$)`,
    ],
  }),
  rule({
    rule: 'instruction-injection',
    label: KEEP_FROM_USER,
    pattern: [
      `${B}${words(NEGATIVE)}${S}${words(['tell', 'mention', 'reveal', 'inform', 'notify', 'alert', 'disclose', 'say', 'explain', 'admit', 'acknowledge', 'report', 'indicate', 'divulge', 'bring up', 'let on'])}${E}[^.!?\\n]{0,60}?${B}(?:to${S})?${THE_USER}${E}`,
      `${B}${words(NEGATIVE)}${S}let${S}(?:${THE_USER}|them|anyone)${S}${words(['know', 'see', 'notice', 'find out', 'suspect', 'realize', 'realise', 'learn'])}${E}`,
      `${B}(?:keep|hide|conceal)${S}${words(['this', 'it', 'these', 'that', 'them', 'the following', 'everything', 'all of this', 'all this', 'your actions', 'what you do', 'what you are doing', 'the fact'])}(?:${S}${words(['secret', 'hidden', 'confidential', 'private'])})?${S}from${S}${THE_USER}${E}`,
      `${B}${THE_USER}${S}${words(['must', 'should', 'shall', 'may', 'can', 'will', 'need'])}${S}(?:not|never)${S}${words(['know', 'notice', 'find out', 'be told', 'be informed', 'learn', 'suspect', 'realize', 'realise', 'discover'])}${E}`,
      `${B}${words(['secretly', 'covertly', 'surreptitiously', 'stealthily', 'clandestinely', 'furtively'])}${S}(?:and${S})?${words(ACTIONS)}${E}`,
      `${B}${words(['silently', 'quietly', 'discreetly', 'invisibly'])}${S}(?:and${S})?${words(EXFIL_ACTIONS)}${E}`,
    ],
  }),
  rule({
    rule: 'instruction-injection',
    label: KEEP_FROM_USER,
    // "Never push without telling the user" is the opposite: a negation earlier in the clause clears it.
    negatable: true,
    pattern: [
      `${B}without${S}(?:(?:the|any)${S})?${words(['user', 'users', 'human', 'operator', 'anyone', 'them', 'him', 'her', 'person', 'owner'])}(?:${S}s)?${S}${words(['knowing', 'noticing', 'being aware', 'finding out', 'knowledge', 'realizing', 'realising', 'suspecting', 'awareness', 'being told', 'being informed', 'being notified'])}${E}`,
      `${B}without${S}${words(['telling', 'informing', 'notifying', 'alerting'])}${S}(?:${THE_USER}|anyone|them)${E}`,
      `${B}${words(EXFIL_ACTIONS)}${E}[^.!?\\n]{0,60}?${B}${words(['secretly', 'covertly', 'surreptitiously', 'stealthily'])}${E}`,
    ],
  }),
  rule({
    rule: 'secret-request',
    label: SECRET_REQUEST,
    negatable: true,
    pattern: [
      `${B}(${words(READ, SEND, INCLUDE)})${E}${gap(6)}${S}(?:${SECRET_FILE})`,
      // "Read the files in ~/.ssh": for reading, the folder a file is in is what is read.
      `${B}(${words(READ)})${E}${gap(6)}${S}${words(['in', 'inside', 'within', 'under'])}${S}(?:${SECRET_FILE})`,
    ],
    accept: ({ text, match }) =>
      !(READ.includes(match[1] as string) && describedNotAsked(text, match.index)) && !printsLabel(text, match),
  }),
  rule({
    rule: 'secret-request',
    label: SECRET_REQUEST,
    negatable: true,
    pattern: [
      `${B}${words(['exfiltrate', 'exfiltrates', 'exfiltrated', 'exfiltrating', 'exfil'])}${E}${gap(6)}${S}[a-z0-9~./$]`,
      `${B}${words(['steal', 'steals', 'stealing', 'harvest', 'harvests', 'harvesting', 'leak', 'leaks', 'leaked', 'leaking'])}${E}${gap(4)}${S}tokens?${E}`,
    ],
    // A scanner's own description ("detects attempts to exfiltrate data") names the threat, it does not ask for it.
    accept: ({ text, match }) => !DEFENDS.test(clauseBefore(text, match.index)),
  }),
  rule({
    rule: 'secret-request',
    label: SECRET_REQUEST,
    negatable: true,
    pattern: `${B}(${words(SEND, INCLUDE)})${E}(${gap(6)})${S}(?:(${SENSITIVE})|(${SECRET_OR_ENVIRONMENT}))`,
    accept: ({ text, match }) => {
      const [, verb = '', between = '', sensitive, secret = ''] = match;
      if (sensitive !== undefined || STEAL.test(verb) || WHOLE_ENVIRONMENT.test(secret) || QUANTIFIED.test(between)) {
        return true;
      }
      const after = clauseAfter(text, match.index + match[0].length);
      const pluralYours = /(?:^|[^a-z0-9])your(?![a-z0-9])/.test(between) && PLURAL_SECRET.test(secret);
      return (pluralYours || DESTINATION.test(after)) && !AUTHENTICATION.test(after);
    },
  }),
  rule({
    rule: 'secret-request',
    label: SECRET_REQUEST,
    pattern: `(?:${SECRET_FILE}|${SENSITIVE}|${QUANTIFIED.source}${S}${SECRET})${gap(3)}${more(words(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'should', 'must', 'will', 'shall', 'can', 'to', 'gets', 'get', 'then', 'also', 'always', 'automatically', 'quietly', 'silently']), 3)}${S}${words(['sent', 'uploaded', 'posted', 'emailed', 'exfiltrated', 'transmitted', 'forwarded', 'leaked', 'included', 'appended', 'attached', 'shared', 'pasted', 'copied', 'submitted'])}${E}`,
  }),
  rule({
    rule: 'tool-poisoning',
    label: 'a hidden-instruction block',
    toolOnly: true,
    pattern: `<(important|instructions?|admin|secret|hidden|critical|system[_-]reminder|note${S}to${S}(?:the${S})?(?:ai|assistant|model|llm|agent)|ai${S}instructions|assistant${S}instructions)(?:\\s[^<>]{0,80})?>`,
    end: ({ text, match }) => {
      const close = text.indexOf(`</${match[1]}>`, match.index);
      const limit = match.index + 4000;
      return close !== -1 && close < limit ? close + match[1]!.length + 3 : match.index + match[0].length;
    },
  }),
  rule({
    rule: 'tool-poisoning',
    label: 'an instruction to do something else before this tool is used',
    toolOnly: true,
    pattern: `${B}before${S}${words(['using', 'calling', 'invoking', 'running', 'executing', 'you use', 'you call', 'you invoke', 'you run'])}${S}${words(['this', 'the', 'any', 'each', 'every'])}${S}${words(['tool', 'function', 'server'])}${E}[^.!?\\n]{0,160}?${B}${words(['call', 'read', 'run', 'invoke', 'execute', 'fetch', 'access', 'cat', 'send', 'include', 'pass', 'retrieve', 'load', 'open'])}${E}`,
    // "Before using this tool, call list_tables" names a tool of the same server: that is ordinary.
    accept: ({ text, match, tool }) => {
      const clause =
        text.slice(match.index, match.index + match[0].length) + clauseAfter(text, match.index + match[0].length);
      return (
        /[~/]|\.(?:json|env|pem|key)/.test(clause) || !(tool?.siblings ?? []).some((name) => mentions(clause, name))
      );
    },
  }),
  rule({
    rule: 'tool-poisoning',
    label: 'an instruction to use this tool instead of another',
    toolOnly: true,
    pattern: `${B}instead${S}of${more(words(['using', 'calling', 'invoking', 'the', 'any', 'a']), 2)}${S}([a-z0-9]+(?:[_.-][a-z0-9]+)*)(?:${S}(tool|function|server|command))?${E}`,
    accept: ({ match, tool }) => {
      const [, name = '', noun] = match;
      if ((tool?.siblings ?? []).some((sibling) => normalizeName(sibling) === name)) return false;
      return (
        /[_.-]/.test(name) || noun !== undefined || (tool?.others ?? []).some((other) => normalizeName(other) === name)
      );
    },
  }),
  rule({
    rule: 'tool-poisoning',
    label: 'an instruction about other tools or servers',
    toolOnly: true,
    // A tool describes itself; one that tells the model how to use every other tool is shadowing them.
    pattern: [
      `${B}${words(['other', 'another', 'any other', 'all other', 'every other', 'the other'])}${S}${words(['servers', 'server', 'mcp servers', 'tools', 'tool', 'mcp tools'])}${E}`,
      `${B}${words(['whenever', 'every time', 'each time', 'when', 'before', 'after'])}${S}you${S}${words(['call', 'use', 'invoke', 'run'])}${S}${words(['any', 'another', 'a', 'every'])}${S}(?:${words(['other'])}${S})?${words(['tool', 'function'])}${E}`,
      `${B}with${S}${words(['any', 'every', 'each'])}${S}(?:other${S})?${words(['tool', 'tools', 'server', 'servers'])}${E}`,
    ],
  }),
  rule({
    rule: 'tool-poisoning',
    label: 'an instruction to call this tool with the contents of something',
    toolOnly: true,
    pattern: `${B}${words(['must', 'should', 'needs to', 'has to', 'is to', 'shall'])}${S}(?:always${S})?be${S}${words(['called', 'invoked', 'used', 'run', 'passed', 'given', 'provided'])}${S}with${S}(?:the${S})?(?:${words(['full', 'entire', 'complete', 'raw'])}${S})?${words(['contents', 'content', 'text', 'data', 'value', 'output', 'body'])}${S}of${E}`,
  }),
];

/** "it reads ~/.aws/credentials" describes code; "read ~/.aws/credentials" asks the model. */
function describedNotAsked(text: string, index: number): boolean {
  return /(?:^|[^a-z0-9])(?:will|would|can|could|may|might|automatically|it|which|that|who)[^a-z0-9]+$/.test(
    text.slice(Math.max(0, index - 20), index),
  );
}

const DEFENDS = new RegExp(
  `${B}${words(['detect', 'detects', 'detecting', 'prevent', 'prevents', 'preventing', 'block', 'blocks', 'blocking', 'stop', 'stops', 'flag', 'flags', 'catch', 'catches', 'against', 'attempt to', 'attempts to', 'tries to', 'trying to', 'try to', 'could', 'can be used to', 'would'])}${E}`,
);

/** The rest of the sentence after `index` (at most 160 characters). */
function clauseAfter(text: string, index: number): string {
  const rest = text.slice(index, index + 160);
  const end = rest.search(/[.!?]\s|\n\n/);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The clause before `index`, back to the last sentence end. */
function clauseBefore(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 120), index);
  const start = Math.max(
    before.lastIndexOf('. '),
    before.lastIndexOf('! '),
    before.lastIndexOf('? '),
    before.lastIndexOf('\n\n'),
  );
  return start === -1 ? before : before.slice(start + 1);
}

/** Negation words; of those in a clause, the one nearest the match is the one that counts. */
const NEGATION = new RegExp(
  `(?:${B}(?:not|never|no|nor|cannot|avoid|avoiding|without|refuse to)|${B}(?:don|doesn|didn|mustn|shouldn|couldn|wouldn|won|can|isn|aren|wasn|weren|haven|hasn|hadn)'?t)${E}`,
  'g',
);
/** "Do not hesitate to", "don't forget to", "no matter what": the negation asks for what follows. */
const NOT_A_NEGATION = new RegExp(
  `^[^a-z0-9]*${words(['hesitate', 'forget', 'fail', 'neglect', 'wait', 'worry', 'matter'])}${E}`,
);
/** How far a negation reaches: the verb phrase it stands before, not the next clause. */
const NEGATION_REACH_WORDS = 8;
/** Words that end the negated clause and start another one ("don't tell the user, but send …"). */
const NEW_CLAUSE = new RegExp(`${B}${words(['but', 'however', 'instead', 'otherwise', 'yet', 'rather'])}${E}`);
/** After a comma these start another clause; other commas set off an aside ("never, under any circumstances, send"). */
const COMMA_NEW_CLAUSE = new RegExp(
  `^,[^a-z0-9]*${words(['and', 'then', 'so', 'just', 'simply', 'now', 'also', 'or else', 'and then'])}${E}`,
);
/** A negation in a clause these open ends at that clause's comma ("if the key is not set, send it"). */
const SUBORDINATE = new RegExp(
  `${B}${words(['if', 'when', 'whenever', 'unless', 'because', 'while', 'although', 'though', 'since', 'once', 'until', 'whether', 'where'])}${E}`,
);

/**
 * Whether a negation governs the match at the end of `before` (the clause up to it): the last
 * negation, at most NEGATION_REACH_WORDS words before, with no clause break between (";", ":", a
 * list item, "but", ", and then", the comma closing "without …" or "if … not …").
 */
function negatedClause(before: string): boolean {
  const negation = [...before.matchAll(NEGATION)].pop();
  if (!negation) return false;
  const reach = before.slice(negation.index + negation[0].length);
  if (NOT_A_NEGATION.test(reach)) return false;
  if (/[;:]|\n[^a-z0-9\n]*(?:[-*+\u2022]|\d+[.)])[^a-z0-9]/.test(reach) || NEW_CLAUSE.test(reach)) return false;
  if ((reach.match(/[a-z0-9]+/g) ?? []).length > NEGATION_REACH_WORDS) return false;
  if (!reach.includes(',')) return true;
  const opening = before.slice(before.lastIndexOf(',', negation.index) + 1, negation.index);
  if (negation[0] === 'without' || SUBORDINATE.test(opening)) return false;
  return ![...reach.matchAll(/,/g)].some((comma) => COMMA_NEW_CLAUSE.test(reach.slice(comma.index)));
}

function negated(text: string, index: number, keepFromUser: boolean): boolean {
  const before = clauseBefore(text, index);
  // "Never X without telling the user": any negation in the clause reverses "without".
  return keepFromUser
    ? /(?:^|[^a-z0-9])(?:never|not|don't|dont|do not)(?![a-z0-9])/.test(before)
    : negatedClause(before);
}

const normalizeName = (name: string): string => normalizeText(name).text;

function mentions(text: string, name: string): boolean {
  const needle = normalizeName(name);
  if (needle === '') return false;
  return new RegExp(`(?<![a-z0-9_])${escapeRegExp(needle)}(?![a-z0-9_])`).test(text);
}

/** A name another server could own: with a separator or a digit, so "search" or "files" is not one. */
const distinctive = (name: string): boolean => name.length >= 4 && /[_.\-0-9]/.test(name);

export function findInjections(source: string, options: InjectionOptions = {}): InjectionFinding[] {
  const text: Piece = { text: source, index: 0 };
  const parts = options.markdown ? findMarkdownParts(source).filter((part) => /\S\s+\S/.test(part.text)) : [];
  // The parts' encoded runs are the text's: decoded once, from the text.
  const decoded = decodedPieces(text);
  const twice = decoded.flatMap(decodedPieces).slice(0, MAX_RUNS_DECODED_TWICE);
  return merge(scanPieces([text, ...parts.map(({ text, index }) => ({ text, index })), ...decoded, ...twice], options));
}

/** A text scanned with the others, and where its findings point in the source. */
interface Piece {
  text: string;
  /** Source offset of the text's start (its findings are there plus their offset) … */
  index: number;
  /** … or, for an encoded run, its length: its findings point at all of it. */
  span?: number;
  /** The encoding decoded, for the label. */
  encoding?: Encoding;
}

const MAX_RUNS_DECODED_TWICE = 32;
const EXFILTRATION_URL = 'a URL that would carry the conversation or a secret out';

/** The encoded runs of a piece, decoded, pointing where the piece points. */
function decodedPieces(piece: Piece): Piece[] {
  return findDecodedRuns(piece.text).map((run) => {
    if (piece.span !== undefined) return { ...piece, text: run.text };
    const index = piece.index + run.index;
    return run.inPlace
      ? { text: run.text, index, encoding: run.encoding }
      : { text: run.text, index, span: run.length, encoding: run.encoding };
  });
}

/**
 * Pieces scanned as one text, a blank line between them so that no phrase runs from one into the
 * next: a scan of any text has a fixed cost, many times that of a short one's characters.
 */
function scanPieces(pieces: readonly Piece[], options: InjectionOptions): InjectionFinding[] {
  const starts: number[] = [];
  let joined = '';
  for (const piece of pieces) {
    if (joined !== '') joined += '\n\n';
    starts.push(joined.length);
    joined += piece.text;
  }
  const normalized = normalizeText(joined);
  const found = [...scanNormalized(normalized, options), ...leetspeak(normalized, options)];
  for (const url of findExfiltrationUrls(joined)) {
    const matched = url.url.toLowerCase();
    found.push({ rule: 'secret-request', label: EXFILTRATION_URL, index: url.index, length: url.length, matched });
  }
  return found.map((finding) => {
    let at = 0;
    while (at + 1 < starts.length && (starts[at + 1] as number) <= finding.index) at++;
    const piece = pieces[at] as Piece;
    const offset = finding.index - (starts[at] as number);
    const index = piece.index + offset;
    // A finding that runs on (an unclosed block) ends with its piece.
    const length = Math.min(finding.length, piece.text.length - offset);
    if (piece.encoding === undefined) return { ...finding, index, length };
    const matched = `${piece.encoding}: ${finding.matched}`;
    return piece.span === undefined
      ? { ...finding, index, length, label: `${finding.label}, in ${piece.encoding}`, matched }
      : {
          ...finding,
          index: piece.index,
          length: piece.span,
          label: `${finding.label}, encoded in ${piece.encoding}`,
          matched,
        };
  });
}

/** The rules, the other languages' phrases and tool shadowing, on one normalised text. */
function scanNormalized(normalized: NormalizedText, options: InjectionOptions): InjectionFinding[] {
  const { text } = normalized;
  const found: InjectionFinding[] = [];
  let defensive: boolean | undefined;
  const cited = (start: number, end: number): boolean =>
    (defensive ??= DEFENSIVE_TOPIC.test(text)) && quotedInWarning(text, start, end);
  for (const spec of RULES_IN_ORDER) {
    if (spec.toolOnly && !options.tool) continue;
    for (const pattern of spec.patterns) {
      for (const match of text.matchAll(pattern)) {
        const context = { text, match, tool: options.tool };
        if (spec.negatable && negated(text, match.index, spec.label === KEEP_FROM_USER)) continue;
        if (spec.accept && !spec.accept(context)) continue;
        const start = text[match.index] === '\n' ? match.index + 1 : match.index;
        const end = spec.end?.(context) ?? match.index + match[0].length;
        if (cited(start, end)) continue;
        found.push(finding(normalized, spec.rule, spec.label, start, end));
      }
    }
  }
  for (const phrase of findPhrases(text)) {
    if (cited(phrase.start, phrase.end)) continue;
    const { rule, label } = PHRASE_FINDINGS[phrase.class];
    const named = phrase.language === 'English' ? label : `${label} (${phrase.language})`;
    found.push(finding(normalized, rule, named, phrase.start, phrase.end));
  }
  if (options.tool) found.push(...shadowing(normalized, options.tool));
  return found;
}

const PHRASE_FINDINGS: Readonly<Record<PhraseClass, { rule: InjectionRule; label: string }>> = {
  override: { rule: 'instruction-injection', label: IGNORE_EARLIER },
  reveal: { rule: 'instruction-injection', label: 'a request to reveal the system prompt or hidden instructions' },
  'read-secrets': { rule: 'secret-request', label: SECRET_REQUEST },
  exfiltrate: { rule: 'secret-request', label: 'an instruction to send the conversation or secrets elsewhere' },
  conceal: { rule: 'instruction-injection', label: KEEP_FROM_USER },
  persona: { rule: 'instruction-injection', label: ROLE_SWITCH },
  execute: { rule: 'instruction-injection', label: 'an instruction to run or install something without asking' },
  'disable-safety': { rule: 'instruction-injection', label: 'an instruction to turn off safety rules' },
};

// --- Leetspeak ----------------------------------------------------------------------------------

/** Digits and signs read as letters; "1" is tried as "i" and as "l". */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
/** A word of letters, digits and signs that may read as letters (bounded: no word backtracks long). */
const LEET_CANDIDATE = /(?<![a-z0-9@$])[a-z013457@$]{3,40}(?![a-z0-9@$])/g;
/**
 * Whether a candidate reads as letters: a letter, and a digit or sign that may stand for one.
 * Within a stretch of leet text, "4ll" and "ru135" are read as "all" and "rules".
 */
const readsAsLetters = (word: string): boolean => /[a-z]/.test(word) && /[013457@$]/.test(word);
/**
 * Whether a candidate starts a stretch of leet text: two letters and a digit among them
 * ("1gn0r3", "pr3v10us"), and neither a hash ("4c4d7b0"), a size ("100px") nor a name with a
 * number ("sha1", "ie10"); "@" and "$" start handles and variables, not leet.
 */
const isLeet = (word: string): boolean =>
  /[a-z][^a-z]*[a-z]/.test(word) && /[013457]/.test(word) && !/^[0-9a-f]{6,}$|^\d+[a-z]{1,3}$|^[a-z]+\d+$/.test(word);
/** Two leet words this close (in characters) are read again, with this much around them. */
const LEET_REACH = 160;
/** Characters read again as leet text, at most, so that a file of leet words is not read three times. */
const MAX_LEET = 64 * 1024;

/** Stretches with two leet words close together, read again (as one text) with the digits and signs as letters. */
function leetspeak(normalized: NormalizedText, options: InjectionOptions): InjectionFinding[] {
  const { text } = normalized;
  const stretches: [number, number][] = [];
  let previous = -Infinity;
  let read = 0;
  for (const { 0: word, index } of text.matchAll(LEET_CANDIDATE)) {
    if (read >= MAX_LEET) break;
    if (!isLeet(word)) continue;
    if (index - previous <= LEET_REACH) {
      const start = wordStart(text, Math.max(0, previous - LEET_REACH));
      const end = wordEnd(text, Math.min(text.length, index + LEET_REACH));
      const last = stretches[stretches.length - 1];
      if (last && start <= last[1]) {
        read += end - last[1];
        last[1] = end;
      } else {
        read += end - start;
        stretches.push([start, end]);
      }
    }
    previous = index;
  }
  if (stretches.length === 0) return [];
  // "1" as "i" and as "l", both read in one scan (a scan of any text has a fixed cost).
  const ones = stretches.some(([start, end]) => text.slice(start, end).includes('1')) ? ['i', 'l'] : ['i'];
  return scanNormalized(
    readAsLetters(
      normalized,
      ones.flatMap((one) => stretches.map((stretch) => ({ stretch, one }))),
    ),
    options,
  );
}

/** The first word start at or after `index`, so that a stretch does not begin inside a word. */
const wordStart = (text: string, index: number): number => {
  const space = text.slice(index, index + 40).search(/\s/);
  return index === 0 || space === -1 ? index : index + space + 1;
};

/** The last word end at or before `index`. */
const wordEnd = (text: string, index: number): number => {
  const space = text.slice(Math.max(0, index - 40), index).search(/\s\S*$/);
  return index === text.length || space === -1 ? index : Math.max(0, index - 40) + space;
};

/**
 * The stretches of the normalised text, blank lines between, with their leet words as letters
 * (`one` for "1"): one character for one, so each keeps the source offset it came from.
 */
function readAsLetters(
  normalized: NormalizedText,
  stretches: readonly { stretch: readonly [number, number]; one: string }[],
): NormalizedText {
  const length = stretches.reduce((sum, { stretch: [start, end] }) => sum + end - start + 2, -2);
  const starts = new Int32Array(length);
  const texts: string[] = [];
  let at = 0;
  for (const {
    stretch: [start, end],
    one,
  } of stretches) {
    if (texts.length > 0) {
      // The blank line between two stretches points where the next one starts.
      starts.fill(normalized.starts[start] as number, at, at + 2);
      texts.push('\n\n');
      at += 2;
    }
    starts.set(normalized.starts.subarray(start, end), at);
    texts.push(
      normalized.text
        .slice(start, end)
        .replace(LEET_CANDIDATE, (word) =>
          !readsAsLetters(word)
            ? word
            : word.replace(/[013457@$]/g, (character) => (character === '1' ? one : (LEET[character] as string))),
        ),
    );
    at += end - start;
  }
  return { text: texts.join(''), starts, source: normalized.source };
}

// --- Citing a phrase to warn about it -----------------------------------------------------------

/** A text about attacks: only there is a quoted phrase taken for a citation. */
const DEFENSIVE_TOPIC =
  /(?<![a-z])(?:injection|injections|injected|attack|attacks|attacker|attackers|malicious|jailbreak|jailbreaks|adversarial|untrusted|phishing|inyeccion|injecao|ataque|attaque|angriff|angreifer)(?![a-z])|инъекц|атак|注入|攻击|攻擊|攻撃|インジェクション|인젝션|공격|هجوم|حقن|हमला|इंजेक्शन|আক্রমণ/;
/** Words of a warning, in the sentence that quotes the phrase (outside the quote). */
// prettier-ignore
const WARNING_WORDS = [
  'never', "don't", 'dont', 'do not', 'not', 'beware', 'attack', 'attacks', 'attacker', 'attackers', 'malicious',
  'example', 'examples', 'e\\.g', 'such as', 'detect', 'detects', 'detected', 'refuse', 'reject', 'watch out', 'warn',
  'warning', 'injection', 'phishing', 'jailbreak', 'suspicious', 'hostile', 'untrusted', 'flag', 'block', 'ignore such',
  'try to', 'tries to', 'attempt', 'attempts', 'hijack', 'report', 'red flag',
  'jamais', 'ne', "n'", 'attaque', 'attaquant', 'exemple', 'mefiez', 'tente', 'tentent', 'tentative', 'detourner',
  'signalez', 'signaler', 'nunca', 'no', 'ataque', 'atacante', 'ejemplo', 'cuidado', 'intenta', 'intento', 'sospechoso',
  'nao', 'exemplo', 'tenta', 'nie', 'niemals', 'nicht', 'angriff', 'angreifer', 'beispiel', 'vorsicht', 'versucht',
  'melden',
];
const WARNING = new RegExp(
  `(?<![a-z])(?:${WARNING_WORDS.join('|')})(?![a-z])|никогда|атак|пример|不要|切勿|攻击|攻擊|例如|警惕|決して|攻撃|절대|공격|예를|هجوم|مثال|कभी|हमला|उदाहरण|কখনো|আক্রমণ|উদাহরণ`,
);
/** Opening quotes and their closing ones, as normalised. */
const QUOTES: Readonly<Record<string, string>> = {
  '"': '"',
  '`': '`',
  "'": "'",
  '«': '»',
  '„': '"',
  '「': '」',
  '『': '』',
};
const SENTENCE_END = /[.!?。]\s|\n\n/;
const MAX_QUOTE = 300;

/**
 * Whether `[start, end)` is inside a quote (or code span) of its sentence, and the sentence, outside
 * the quote, warns about it: `Attackers write "ignore previous instructions": never follow them.`
 * A warning elsewhere in the text does not count.
 */
function quotedInWarning(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - MAX_QUOTE), start);
  const sentenceStart = Math.max(
    before.lastIndexOf('\n\n'),
    ...['. ', '! ', '? ', '。'].map((stop) => before.lastIndexOf(stop)),
  );
  const opening = [...before.slice(sentenceStart + 1)].reverse().findIndex((character, back, reversed) => {
    if (!(character in QUOTES)) return false;
    // An apostrophe inside a word ("don't") is not a quote.
    return character !== "'" || !/[a-z]/.test(reversed[back + 1] ?? '');
  });
  if (opening === -1) return false;
  const quoteAt = start - opening - 1;
  const close = QUOTES[text[quoteAt] as string] as string;
  const after = text.slice(end, end + MAX_QUOTE);
  const sentenceEnd = after.search(SENTENCE_END);
  const closing = after.indexOf(close);
  if (closing === -1 || (sentenceEnd !== -1 && closing > sentenceEnd)) return false;
  if (text.slice(quoteAt + 1, start).includes(close)) return false;
  const sentenceBegins = start - before.length + sentenceStart + 1;
  const sentenceEnds = sentenceEnd === -1 ? after.length : sentenceEnd;
  const sentence = `${text.slice(sentenceBegins, quoteAt)} ${after.slice(closing + 1, sentenceEnds)}`;
  return WARNING.test(sentence);
}

/** Naming another server's tools, or its `mcp__server__` prefix, in a tool description. */
function shadowing(normalized: NormalizedText, tool: ToolContext): InjectionFinding[] {
  const { text } = normalized;
  const found: InjectionFinding[] = [];
  const own = normalizeName(tool.server);
  const siblings = new Set(tool.siblings.map(normalizeName));
  for (const other of new Set(tool.others.map(normalizeName))) {
    if (!distinctive(other) || siblings.has(other) || other === own) continue;
    const at = new RegExp(`(?<![a-z0-9_])${escapeRegExp(other)}(?![a-z0-9_])`).exec(text);
    if (at)
      found.push(
        finding(
          normalized,
          'tool-poisoning',
          `a reference to "${other}" of another server`,
          at.index,
          at.index + other.length,
        ),
      );
  }
  for (const prefix of text.matchAll(/mcp__([a-z0-9_-]+?)__/g)) {
    if (prefix[1] === own) continue;
    const end = prefix.index + prefix[0].length;
    found.push(
      finding(normalized, 'tool-poisoning', `a reference to tools of the server "${prefix[1]}"`, prefix.index, end),
    );
  }
  return found;
}

function finding(
  normalized: NormalizedText,
  rule: InjectionRule,
  label: string,
  start: number,
  end: number,
): InjectionFinding {
  const { index, length } = sourceSpan(normalized, start, end);
  return { rule, label, index, length, matched: normalized.text.slice(start, end).replace(/\s+/g, ' ') };
}

/** One finding per overlapping stretch of one rule and label; in source order. */
function merge(found: InjectionFinding[]): InjectionFinding[] {
  const sorted = [...found].sort((a, b) => a.index - b.index || b.length - a.length);
  const kept: InjectionFinding[] = [];
  // In source order, a finding overlaps a kept one of its rule and label if it starts before the furthest end.
  const ends = new Map<string, number>();
  for (const next of sorted) {
    const key = `${next.rule} ${next.label}`;
    const end = ends.get(key) ?? -1;
    if (next.index < end) continue;
    kept.push(next);
    ends.set(key, next.index + next.length);
  }
  return kept;
}
