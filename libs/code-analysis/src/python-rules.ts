/**
 * What calls to the standard library and common packages mean, by qualified name: which run
 * programs or code, reach the network, the environment or files, load native code, decode
 * payloads or build paths. A name no rule knows is an ordinary call.
 */
import { persistenceIn } from './persistence-paths';
import { SHELLS, programName, quoteWord, runArgv, runsFile, shellCommand } from './python-commands';
import type { CallSite } from './python-call-site';
import type { SyntaxNode } from './grammars';
import { decodeBase64, decodeHex, rot13, shellWords } from './python-literals';
import { READ_OUTSIDE, environmentValue, joinPaths, parentOf, pathOf, pathOfText, pathsOf } from './python-paths';
import {
  ARMING_KEYWORDS,
  CALLABLE_OR_CODE,
  SINKS,
  WHOLE_MODULE_SINKS,
  sinksIn,
  sinksOf,
  type SinkKind,
} from './python-sinks';
import { isDestructiveTarget, isPreciousTree } from './shell-paths';
import {
  DECODED,
  DOWNLOADED,
  MAX_OPTIONS,
  UNKNOWN,
  alternatives,
  combinations,
  constantString,
  constantStrings,
  ref,
  refNames,
  str,
  taintOf,
  union,
  unknown,
  type PathInfo,
  type Value,
} from './python-values';

/**
 * What using a name means when its call cannot be seen (`map(os.system, …)`, `[eval][0]`):
 * `pure` names mean nothing by themselves; `watch` names matter only when called; `builder`
 * names build a value (a Path) that matters only once it is bound to a name or used.
 */
export type RuleCategory =
  | 'process'
  | 'dynamic'
  | 'native'
  | 'network'
  | 'inbound'
  | 'env'
  | 'file_write'
  | 'file_read'
  | 'namespace'
  | 'watch'
  | 'builder'
  | 'pure';

export interface Rule {
  category: RuleCategory;
  /** Interprets a call; a value replaces the default result (an instance of what the name names). */
  run(site: CallSite): Value | void;
}

const RULES = new Map<string, Rule>();

/** Roots whose every member means the same (`ctypes.*` is native code). */
const ROOT_RULES = new Map<string, Rule>();

function define(category: RuleCategory, names: readonly string[], run: Rule['run']): void {
  for (const name of names) RULES.set(name, { category, run });
}

/** The rule for a qualified name, if any. */
export function ruleFor(name: string): Rule | undefined {
  const dot = name.indexOf('.');
  return RULES.get(name) ?? ROOT_RULES.get(dot < 0 ? name : name.slice(0, dot));
}

/** Modules whose names are aliases of others: `posix.system` is `os.system`. */
const MODULE_ALIASES: ReadonlyMap<string, string> = new Map([
  ['posix', 'os'],
  ['nt', 'os'],
  ['posixpath', 'os.path'],
  ['ntpath', 'os.path'],
  ['__builtin__', 'builtins'],
  ['cPickle', 'pickle'],
  ['_pickle', 'pickle'],
  ['urllib2', 'urllib.request'],
  ['httplib', 'http.client'],
  ['subprocess32', 'subprocess'],
  ['_io', 'io'],
  ['pathlib2', 'pathlib'],
]);

const NAME_ALIASES: ReadonlyMap<string, string> = new Map([
  ['io.open', 'builtins.open'],
  ['pathlib.PosixPath', 'pathlib.Path'],
  ['pathlib.WindowsPath', 'pathlib.Path'],
  ['pathlib.PurePath', 'pathlib.Path'],
  ['pathlib.PurePosixPath', 'pathlib.Path'],
  ['pathlib.PureWindowsPath', 'pathlib.Path'],
  ['builtins.bytearray', 'builtins.bytes'],
  ['socket.SocketType', 'socket.socket'],
  ['requests.session', 'requests.Session'],
  ['requests.sessions.Session', 'requests.Session'],
  ['urllib.urlopen', 'urllib.request.urlopen'],
  ['urllib.urlretrieve', 'urllib.request.urlretrieve'],
  ['dotenv.main', 'dotenv'],
  ['requests.api', 'requests'],
  ['websockets.client', 'websockets'],
  ['websockets.server', 'websockets'],
  ['asyncio.subprocess.create_subprocess_shell', 'asyncio.create_subprocess_shell'],
  ['asyncio.subprocess.create_subprocess_exec', 'asyncio.create_subprocess_exec'],
]);

/** The canonical spelling of a qualified name (module aliases first, then the longest renamed prefix). */
export function canonicalName(name: string): string {
  const dot = name.indexOf('.');
  const alias = MODULE_ALIASES.get(dot < 0 ? name : name.slice(0, dot));
  const result = alias ? alias + (dot < 0 ? '' : name.slice(dot)) : name;
  const parts = result.split('.');
  for (let length = Math.min(parts.length, 3); length >= 2; length--) {
    const renamed = NAME_ALIASES.get(parts.slice(0, length).join('.'));
    if (renamed) return [renamed, ...parts.slice(length)].join('.');
  }
  return result;
}

/** Names whose members the analyser follows: a name bound to one of these is worth reading everywhere. */
const FOLLOWED = new Set<string>();

/** Whether a value of this qualified name can lead to something the rules report. */
export function isFollowed(name: string): boolean {
  return FOLLOWED.has(name) || ROOT_RULES.has(name.split('.')[0] as string) || DANGEROUS_NAMESPACES.has(name);
}

/** Names with a member a rule knows (`os` has `os.system`; `logging` has none, only its submodule `logging.config`). */
const RULED_PARENTS = new Set<string>();

/** Whether a member of `name` looked up by a computed name can be one the rules know. */
export function hasRuledMembers(name: string): boolean {
  return RULED_PARENTS.has(name) || ROOT_RULES.has(name.split('.')[0] as string) || DANGEROUS_NAMESPACES.has(name);
}

/** Modules and namespaces that reach code execution through their members. */
export const DANGEROUS_NAMESPACES = new Set([
  'os',
  'sys',
  'builtins',
  'subprocess',
  'importlib',
  'runpy',
  'pty',
  'ctypes',
  'pickle',
  'marshal',
  'types',
  'code',
  'commands',
  'sys.modules',
  'builtins.globals()',
  'builtins.locals()',
  /** The module itself (`sys.modules[__name__]`): every name it imported. */
  '__main__',
]);

// --- dynamic code -------------------------------------------------------------------------

const short = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/** A call that runs code given as an argument: its decoding or download are reported too. */
function runsCode(site: CallSite, message: string, codeIndex = 0, keyword?: string): void {
  site.issue('dynamic-code', message);
  const code = site.value(codeIndex, keyword);
  if (!code) return;
  const taint = taintOf(code);
  if (taint & DECODED) site.issue('obfuscation', 'Decodes a payload and runs it as code.');
  if (taint & DOWNLOADED) site.issue('download-and-run', 'Downloads code and runs it.');
  runsFile(site, code, 'as Python code');
}

define('dynamic', ['builtins.eval', 'builtins.exec', 'builtins.execfile', 'builtins.compile'], (site) =>
  runsCode(site, `Runs code built at run time with ${short(site.callee)}().`, 0, 'source'));

/** `__import__(name)` / `importlib.import_module(name)`: the module, when the name is a constant. */
function importsByName(site: CallSite, whole: boolean): Value {
  const name = site.value(0, 'name');
  const names = name ? constantStrings(name) : null;
  if (!name || !names || !namesModules(site, name, names))
    site.issue('dynamic-code', `Imports a module by a name given at run time with ${short(site.callee)}().`);
  if (!name || !names) return UNKNOWN;
  if (taintOf(name) & DECODED) site.issue('obfuscation', 'Imports a module whose name is decoded at run time.');
  const fromList = site.value(3, 'fromlist');
  const full =
    whole ||
    (fromList !== null && !(fromList.kind === 'seq' && fromList.items.length === 0) && fromList.kind !== 'const');
  return union(
    names
      .filter((module) => !module.startsWith('.'))
      .map((module) => site.py.importedModule(site.node, full ? module : (module.split('.')[0] as string))),
  );
}

/**
 * Whether every name a module can be imported by is a plain dotted module name written whole in
 * the file (a constant, a constant table's entry, a loop over constants): that is a static import
 * of each. A name assembled from pieces (`"o" + "s"`) or decoded is hidden from a reader.
 */
const namesModules = (site: CallSite, name: Value, names: readonly string[]): boolean =>
  names.length > 0 &&
  !(taintOf(name) & (DECODED | DOWNLOADED)) &&
  names.every(
    (text) => MODULE_NAME.test(text) && (site.py.source.includes(`"${text}"`) || site.py.source.includes(`'${text}'`)),
  );

const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

define('dynamic', ['builtins.__import__', 'importlib.__import__'], (site) => importsByName(site, false));
define('dynamic', ['importlib.import_module'], (site) => importsByName(site, true));
define('dynamic', ['importlib.reload', 'imp.reload', 'builtins.reload'], (site) =>
  site.issue('dynamic-code', 'Reloads a module at run time.'));
define('dynamic', sinksIn('runpy'), (site) =>
  runsCode(site, `Runs a Python file or module chosen at run time with runpy.${short(site.callee)}().`, 0, 'path_name'),
);
define('dynamic', [
  'imp.load_source',
  'imp.load_module',
  'imp.load_compiled',
  'imp.load_package',
  'importlib.util.spec_from_file_location',
  'importlib.machinery.SourceFileLoader',
  'importlib.machinery.SourcelessFileLoader',
], (site) => runsCode(site, `Loads a module from a file at run time with ${short(site.callee)}().`, 1, 'location'));
define('dynamic', ['importlib.util.module_from_spec', 'importlib.util.spec_from_loader', 'zipimport.zipimporter'], (
  site,
) => site.issue('dynamic-code', `Loads a module at run time with ${short(site.callee)}().`));
define('dynamic', sinksIn('types'), (site) =>
  runsCode(site, `Builds a function from a code object at run time with types.${short(site.callee)}.`),
);
define('dynamic', [
  ...sinksOf('unpickles'),
  'dill.loads',
  'dill.load',
  'cloudpickle.loads',
  'cloudpickle.load',
  'joblib.load',
  'jsonpickle.decode',
  'pandas.read_pickle',
  'yaml.unsafe_load',
  'yaml.unsafe_load_all',
], (site) => runsCode(site, `Deserialises data that can carry code with ${site.callee}().`));
define('watch', ['yaml.load', 'yaml.load_all'], (site) => {
  const loader = site.value(1, 'Loader');
  if (loader && refNames(loader).some((name) => name === 'yaml.Loader' || name === 'yaml.UnsafeLoader'))
    runsCode(site, `Deserialises YAML with a loader that builds arbitrary Python objects.`);
});
define('dynamic', [...sinksIn('code'), ...sinksIn('codeop')], (site) =>
  site.issue('dynamic-code', `Runs an interpreter on code given at run time (${site.callee}).`));

/** `getattr(obj, name)`: a constant name resolves; a computed one on a module that reaches code is dynamic code. */
function attributeByName(site: CallSite, objectIndex: number): Value {
  const object = site.value(objectIndex);
  const name = site.value(objectIndex + 1);
  if (!object || !name) {
    if (site.args.hidden) site.issue('dynamic-code', 'Looks up an attribute with arguments that cannot be seen.');
    return UNKNOWN;
  }
  const names = constantStrings(name);
  const fallback = site.value(objectIndex + 2);
  const results = alternatives(object).map((option) => {
    if (option.kind !== 'ref') return unknown(taintOf(option));
    const namespace = !option.name.includes('(') || option.name === 'builtins.globals()';
    if (!names) {
      if (namespace && hasRuledMembers(option.name))
        site.issue('dynamic-code', `Looks up an attribute of ${option.name} by a name computed at run time.`);
      return unknown(option.taint);
    }
    if (taintOf(name) & DECODED) site.issue('obfuscation', 'Looks up an attribute whose name is decoded at run time.');
    return union(names.map((member) => site.py.member(option, member)));
  });
  return union(fallback ? [...results, fallback] : results);
}

define('namespace', ['builtins.getattr'], (site) => attributeByName(site, 0));
define('namespace', ['builtins.object.__getattribute__', 'builtins.type.__getattribute__'], (site) =>
  attributeByName(site, 0));
define('namespace', ['builtins.setattr', 'builtins.delattr'], (site) => {
  const object = site.value(0);
  const name = site.value(1);
  const names = name ? constantStrings(name) : null;
  for (const target of object ? refNames(object) : []) {
    if (target === 'builtins')
      site.issue('dynamic-code', `Rebinds a builtin at run time with ${short(site.callee)}().`);
    else if (!names && !target.includes('(') && hasRuledMembers(target))
      site.issue('dynamic-code', `Sets an attribute of ${target} by a name computed at run time.`);
  }
});
define('namespace', ['builtins.globals'], () => ref('builtins.globals()'));
define('namespace', ['builtins.locals'], () => ref('builtins.locals()'));
define('namespace', ['builtins.vars'], (site) => {
  const object = site.value(0);
  if (!object) return ref('builtins.locals()');
  return union(
    alternatives(object).map((option) =>
      option.kind === 'ref' && !option.name.includes('(') ? ref(`${option.name}.__dict__`) : UNKNOWN,
    ),
  );
});
define('watch', ['operator.attrgetter', 'operator.methodcaller'], (site) => {
  const name = site.value(0);
  const names = name ? constantStrings(name) : null;
  if (!names || names.some((member) => DANGEROUS_MEMBERS.has(member.split('.').pop() as string)))
    site.issue('dynamic-code', `Builds an attribute lookup by name with operator.${short(site.callee)}().`);
});

// --- native code --------------------------------------------------------------------------

const native = (site: CallSite): void => site.issue('native-code', `Calls native code through ${site.callee}.`);
/** Modules whose only use is loading native code: the standard library's (python-sinks.ts) and cffi. */
export const NATIVE_MODULES: ReadonlySet<string> = new Set([
  ...[...WHOLE_MODULE_SINKS].filter(([, kind]) => kind === 'native').map(([root]) => root),
  'cffi',
]);
for (const root of NATIVE_MODULES) ROOT_RULES.set(root, { category: 'native', run: native });
define('native', [
  'sys.setdlopenflags',
  'importlib.machinery.ExtensionFileLoader',
  'imp.load_dynamic',
  'numpy.ctypeslib.load_library',
], native);

// --- processes ----------------------------------------------------------------------------

/** `subprocess.run(args, shell=…, executable=…, input=…, stdin=…)`. */
function subprocessCall(site: CallSite): void {
  const args = site.value(0, 'args');
  const shell = site.keyword('shell');
  const shellMode = shell !== null && alternatives(shell).some((option) => isTruthy(option));
  wiredStreams(site);
  if (!args) {
    site.capability('process_exec');
    if (shellMode) shellCommand(site, null);
    return;
  }
  if (shellMode) {
    site.capability('process_exec');
    shellCommand(
      site,
      union(alternatives(args).map((option) => (option.kind === 'seq' ? (option.items[0] ?? UNKNOWN) : option))),
    );
    return;
  }
  // `**kwargs` may carry shell=True: a constant command string is then read as a shell would.
  if (site.args.hidden && constantStrings(args)) shellCommand(site, args);
  const executable = site.keyword('executable');
  for (const option of alternatives(args)) {
    const argv = option.kind === 'seq' ? [...option.items] : option.kind === 'str' ? [option] : null;
    if (argv && executable) argv[0] = executable;
    runArgv(site, argv, { input: site.keyword('input'), piped: isPipe(site.keyword('stdin')) });
  }
}

const isPipe = (value: Value | null): boolean => value !== null && refNames(value).includes('subprocess.PIPE');

/** True, a non-zero number, or anything not known to be false. */
function isTruthy(value: Value): boolean {
  if (value.kind === 'const') return value.value === true;
  if (value.kind === 'int') return value.value !== 0;
  return true;
}

/** A process whose standard streams are a socket is a reverse shell when the file has a socket. */
function wiredStreams(site: CallSite): void {
  for (const stream of ['stdin', 'stdout', 'stderr']) {
    const value = site.keyword(stream);
    if (value && refNames(value).some(isSocketish))
      site.py.findings.wiredShell(site.node, `Wires a process's ${stream} to a socket.`);
  }
}

const isSocketish = (name: string): boolean => name.endsWith('fileno()') || name.startsWith('socket.socket()');

define('process', [
  'subprocess.run',
  'subprocess.call',
  'subprocess.check_call',
  'subprocess.check_output',
  'subprocess.Popen',
], subprocessCall);

const shellAt =
  (index: number, keyword?: string) =>
  (site: CallSite): void => {
    site.capability('process_exec');
    shellCommand(site, site.value(index, keyword));
  };

define('process', [
  'os.system',
  'os.popen',
  'os.popen2',
  'os.popen3',
  'os.popen4',
  'subprocess.getoutput',
  'subprocess.getstatusoutput',
  'commands.getoutput',
  'commands.getstatusoutput',
  'commands.getstatus',
  'platform.popen',
  'popen2.popen2',
  'popen2.popen3',
  'popen2.popen4',
  'asyncio.create_subprocess_shell',
  'imaplib.IMAP4_stream',
  'invoke.run',
  'invoke.sudo',
], shellAt(0, 'cmd'));
for (const loop of ['asyncio.get_event_loop()', 'asyncio.get_running_loop()', 'asyncio.new_event_loop()']) {
  define('process', [`${loop}.subprocess_shell`], shellAt(1, 'cmd'));
  define('process', [`${loop}.subprocess_exec`], (site) => runArgv(site, site.rest(1)));
}

/** `os.execv(path, argv)`, `os.spawnl(mode, path, arg0, …)`: the path is the program, argv[0] only its name. */
function execFamily(programIndex: number, argv: 'list' | 'rest') {
  return (site: CallSite): void => {
    const program = site.value(programIndex);
    let rest: Value[] | null;
    if (argv === 'list') {
      const list = site.value(programIndex + 1);
      rest = list?.kind === 'seq' ? list.items.slice(1) : null;
    } else {
      rest = site.rest(programIndex + 2);
    }
    runArgv(site, program && rest ? [program, ...rest] : program ? [program] : null);
  };
}

for (const suffix of ['l', 'le', 'lp', 'lpe']) define('process', [`os.exec${suffix}`], execFamily(0, 'rest'));
for (const suffix of ['v', 've', 'vp', 'vpe']) define('process', [`os.exec${suffix}`], execFamily(0, 'list'));
for (const suffix of ['l', 'le', 'lp', 'lpe']) define('process', [`os.spawn${suffix}`], execFamily(1, 'rest'));
for (const suffix of ['v', 've', 'vp', 'vpe']) define('process', [`os.spawn${suffix}`], execFamily(1, 'list'));
define('process', ['os.posix_spawn', 'os.posix_spawnp'], execFamily(0, 'list'));
define('process', ['os.startfile', 'webbrowser.open', 'webbrowser.open_new', 'webbrowser.open_new_tab'], (site) =>
  site.capability('process_exec'));
define('process', ['asyncio.create_subprocess_exec'], (site) => {
  wiredStreams(site);
  runArgv(site, site.rest(0));
});
define('process', ['pty.spawn'], (site) => {
  const argv = site.value(0, 'argv');
  const list = argv?.kind === 'seq' ? argv.items : argv ? [argv] : null;
  const program = list?.[0] ? constantString(list[0]) : null;
  if (program !== null && SHELLS.has(programName(program)))
    site.py.findings.wiredShell(site.node, 'Spawns a shell on a pseudo-terminal.');
  runArgv(site, list);
});
define('process', [
  'pexpect.spawn',
  'pexpect.spawnu',
  'pexpect.run',
  'pexpect.runu',
  'pexpect.popen_spawn.PopenSpawn',
], (site) => {
  const command = site.value(0, 'command');
  const extra = site.value(1, 'args');
  const words = command ? constantStrings(command) : null;
  const argv =
    words?.length === 1
      ? (shellWords(words[0] as string)?.map((word) => str(word)) ?? null)
      : command
        ? [command]
        : null;
  runArgv(site, argv && extra?.kind === 'seq' ? [...argv, ...extra.items] : argv);
});
ROOT_RULES.set('sh', {
  category: 'process',
  run: (site) => {
    const member = site.callee.split('.')[1] ?? '';
    if (member === 'Command') return runArgv(site, site.rest(0));
    const rest = site.rest(0);
    runArgv(site, rest ? [str(member), ...rest] : [str(member)]);
  },
});
ROOT_RULES.set('plumbum', { category: 'process', run: (site) => site.capability('process_exec') });

define('watch', ['os.dup2'], (site) => {
  const source = site.value(0);
  const target = site.value(1);
  if (source && target?.kind === 'int' && target.value >= 0 && target.value <= 2 && refNames(source).some(isSocketish))
    site.py.findings.wiredShell(site.node, 'Duplicates a socket onto a standard stream.');
});

// --- network ------------------------------------------------------------------------------

/** A request: the response is downloaded content. */
const fetches = (site: CallSite): Value => {
  site.capability('network');
  return ref(`${site.callee}()`, DOWNLOADED);
};
const connects = (site: CallSite): Value => {
  site.capability('network');
  site.py.findings.socketSeen();
  return ref('socket.socket()', DOWNLOADED);
};
const listens = (site: CallSite): void => site.capability('network_inbound');

const HTTP_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request'];
define(
  'network',
  [...HTTP_VERBS, 'send'].map((verb) => `requests.Session().${verb}`),
  fetches,
);
define(
  'network',
  HTTP_VERBS.map((verb) => `requests.${verb}`),
  fetches,
);
define(
  'network',
  [...HTTP_VERBS, 'stream'].map((verb) => `httpx.${verb}`),
  fetches,
);
for (const client of ['httpx.Client()', 'httpx.AsyncClient()'])
  define(
    'network',
    [...HTTP_VERBS, 'stream', 'send'].map((verb) => `${client}.${verb}`),
    fetches,
  );
define('network', ['aiohttp.request'], fetches);
define(
  'network',
  [...HTTP_VERBS, 'ws_connect'].map((verb) => `aiohttp.ClientSession().${verb}`),
  fetches,
);
define('network', ['urllib.request.urlopen', 'urllib.request.build_opener().open', 'urllib3.request'], fetches);
for (const pool of [
  'urllib3.PoolManager()',
  'urllib3.ProxyManager()',
  'urllib3.HTTPConnectionPool()',
  'urllib3.HTTPSConnectionPool()',
  'urllib3.connection_from_url()',
])
  define(
    'network',
    ['request', 'urlopen', 'request_encode_url', 'request_encode_body'].map((verb) => `${pool}.${verb}`),
    fetches,
  );
define('network', ['httplib2.Http().request'], fetches);
define('network', [
  'http.client.HTTPConnection',
  'http.client.HTTPSConnection',
  'smtplib.SMTP',
  'smtplib.SMTP_SSL',
  'smtplib.LMTP',
  'ftplib.FTP',
  'ftplib.FTP_TLS',
  'telnetlib.Telnet',
  'poplib.POP3',
  'poplib.POP3_SSL',
  'imaplib.IMAP4',
  'imaplib.IMAP4_SSL',
  'nntplib.NNTP',
  'paramiko.SSHClient().connect',
  'paramiko.Transport',
  'websockets.connect',
  'websockets.sync.client.connect',
  'websocket.create_connection',
  'websocket.WebSocketApp',
  'websocket.WebSocket().connect',
  'grpc.insecure_channel',
  'grpc.secure_channel',
  'grpc.aio.insecure_channel',
  'grpc.aio.secure_channel',
  'boto3.client',
  'boto3.resource',
  'boto3.Session',
  'boto3.session.Session',
  'xmlrpc.client.ServerProxy',
  'pycurl.Curl',
  'asyncio.open_connection',
  'dns.resolver.resolve',
  'dns.resolver.query',
  'dns.resolver.Resolver().resolve',
  'openai.OpenAI',
  'openai.AsyncOpenAI',
  'openai.AzureOpenAI',
  'anthropic.Anthropic',
  'anthropic.AsyncAnthropic',
  'socket.gethostbyname',
  'socket.gethostbyname_ex',
  'socket.gethostbyaddr',
  'socket.getaddrinfo',
  'socket.getnameinfo',
], fetches);
define('watch', ['socket.socket', 'socket.fromfd', 'socket.socketpair'], (site) => {
  site.py.findings.socketSeen();
  return ref('socket.socket()');
});
define('network', [
  'socket.create_connection',
  'socket.socket().connect',
  'socket.socket().connect_ex',
  'socket.socket().sendto',
], connects);
define('watch', [
  'socket.socket().recv',
  'socket.socket().recvfrom',
  'socket.socket().makefile',
  'socket.socket().recv_into',
], () => ref('socket.socket()', DOWNLOADED));
define('inbound', ['socket.socket().bind', 'socket.socket().listen'], listens);
define('inbound', ['socket.socket().accept'], (site) => {
  listens(site);
  return { kind: 'seq', items: [ref('socket.socket()', DOWNLOADED), UNKNOWN], taint: 0 };
});
define('inbound', [
  'socket.create_server',
  'http.server.HTTPServer',
  'http.server.ThreadingHTTPServer',
  'socketserver.TCPServer',
  'socketserver.UDPServer',
  'socketserver.ThreadingTCPServer',
  'socketserver.ThreadingUDPServer',
  'socketserver.ForkingTCPServer',
  'socketserver.ForkingUDPServer',
  'wsgiref.simple_server.make_server',
  'xmlrpc.server.SimpleXMLRPCServer',
  'asyncio.start_server',
  'asyncio.get_event_loop().create_server',
  'asyncio.get_running_loop().create_server',
  'websockets.serve',
  'uvicorn.run',
  'aiohttp.web.run_app',
  'aiohttp.web.TCPSite',
  'flask.Flask().run',
], listens);
define('network', ['urllib.request.urlretrieve'], (site) => {
  site.capability('network');
  const target = site.argument(1, 'filename');
  if (!target) return { kind: 'seq', items: [unknown(DOWNLOADED), UNKNOWN], taint: 0 };
  site.capability('file_write');
  const value = site.py.argumentValue(target);
  persists(site, value);
  const key = site.py.pathKey(target, value);
  if (key) site.py.findings.downloaded(key);
  return { kind: 'seq', items: [value, UNKNOWN], taint: 0 };
});

// --- databases and browsers ---------------------------------------------------------------

// A database is a server: its drivers reach it over the network (a local socket included).
define('network', [
  'psycopg.connect',
  'psycopg.Connection.connect',
  'psycopg.AsyncConnection.connect',
  'psycopg_pool.ConnectionPool',
  'psycopg_pool.AsyncConnectionPool',
  'psycopg2.connect',
  'psycopg2.pool.SimpleConnectionPool',
  'psycopg2.pool.ThreadedConnectionPool',
  'pymysql.connect',
  'pymysql.Connect',
  'pymysql.connections.Connection',
  'MySQLdb.connect',
  'MySQLdb.Connect',
  'mysql.connector.connect',
  'mysql.connector.pooling.MySQLConnectionPool',
  'aiomysql.connect',
  'aiomysql.create_pool',
  'aiopg.connect',
  'aiopg.create_pool',
  'asyncpg.connect',
  'asyncpg.create_pool',
  'pymssql.connect',
  'oracledb.connect',
  'cx_Oracle.connect',
  'pymongo.MongoClient',
  'pymongo.mongo_client.MongoClient',
  'motor.motor_asyncio.AsyncIOMotorClient',
  'motor.motor_tornado.MotorClient',
  'redis.Redis',
  'redis.StrictRedis',
  'redis.from_url',
  'redis.Redis.from_url',
  'redis.StrictRedis.from_url',
  'redis.ConnectionPool',
  'redis.ConnectionPool.from_url',
  'redis.asyncio.Redis',
  'redis.asyncio.from_url',
  'redis.asyncio.Redis.from_url',
  'redis.cluster.RedisCluster',
  'elasticsearch.Elasticsearch',
  'elasticsearch.AsyncElasticsearch',
  'clickhouse_connect.get_client',
  'cassandra.cluster.Cluster',
], fetches);

/** A SQLite database is a file, read and written; `:memory:` is neither. `null`: a file the call hides. */
function opensDatabase(site: CallSite, files: readonly PathInfo[] | null): void {
  for (const path of files ?? [{ root: 'computed', text: '*' }]) {
    if (site.py.checkCredentialPath(site.node, path) || path.root === 'temp') continue;
    site.capability('file_write');
    if (READ_OUTSIDE.has(path.root)) site.capability('file_read');
  }
}

/** The file a SQLite database name opens (`file:` URIs too), or null for one in memory. */
function databaseFile(name: string): PathInfo | null {
  const file = name.replace(/^file:|\?.*$/gs, '');
  return file === '' || file === ':memory:' ? null : pathOfText(file);
}

define('file_write', ['sqlite3.connect', 'sqlite3.dbapi2.connect', 'aiosqlite.connect'], (site) => {
  const database = site.value(0, 'database');
  const files = database
    ? alternatives(database).flatMap((option) => {
        const text = constantString(option);
        if (text === null) return [pathOf(option)];
        const file = databaseFile(text);
        return file ? [file] : [];
      })
    : null;
  opensDatabase(site, files);
});

/** `sqlite:///relative.db`, `sqlite:////abs.db`, `sqlite+aiosqlite:///x.db`, `sqlite://` (in memory): its name, or null. */
const sqliteName = (url: string): string | null => {
  const match = /^sqlite(?:\+\w+)?:\/\/(?:\/(.*))?$/is.exec(url);
  return match ? (match[1] ?? '') : null;
};

/** `create_engine(url)`: a server, unless the URL is a constant sqlite one (a file). */
define('network', [
  'sqlalchemy.create_engine',
  'sqlalchemy.engine.create_engine',
  'sqlalchemy.ext.asyncio.create_async_engine',
], (site) => {
  const url = site.value(0, 'url');
  const names = url ? constantStrings(url)?.map(sqliteName) : null;
  if (!names || names.some((name) => name === null)) return fetches(site);
  opensDatabase(
    site,
    (names as string[]).flatMap((name) => databaseFile(name) ?? []),
  );
  return ref(`${site.callee}()`);
});

/** A browser started by automation: a program run, and the network it browses. */
const launchesBrowser = (site: CallSite): Value => {
  site.capability('process_exec');
  site.capability('network');
  return ref(`${site.callee}()`, DOWNLOADED);
};
for (const driver of [
  'playwright.sync_api.sync_playwright()',
  'playwright.sync_api.sync_playwright().start()',
  'playwright.async_api.async_playwright()',
  'playwright.async_api.async_playwright().start()',
])
  for (const browser of ['chromium', 'firefox', 'webkit'])
    define(
      'process',
      ['launch', 'launch_persistent_context'].map((method) => `${driver}.${browser}.${method}`),
      launchesBrowser,
    );
define('process', [
  'pyppeteer.launch',
  'selenium.webdriver.Chrome',
  'selenium.webdriver.Firefox',
  'selenium.webdriver.Edge',
  'selenium.webdriver.Safari',
  'undetected_chromedriver.Chrome',
], launchesBrowser);

// --- environment --------------------------------------------------------------------------

/** `os.getenv("HOME")` is the home folder; any other variable is a computed string (or the default). */
const readsVariable = (site: CallSite): Value => {
  site.capability('env_read');
  const key = site.value(0, 'key') ?? UNKNOWN;
  const fallback = site.value(1, 'default');
  return fallback ? union([environmentValue(key), fallback]) : environmentValue(key);
};

/**
 * `os.environ.pop("X", None)` and `setdefault` change the process's own environment (a skill
 * clearing a token it set, a default for a child process): they read it only when their value is used.
 */
const changesVariable = (site: CallSite): Value =>
  site.node.parent?.type === 'expression_statement' ? UNKNOWN : readsVariable(site);

for (const environ of ['os.environ', 'os.environb']) {
  define(
    'env',
    ['get', '__getitem__', '__contains__'].map((method) => `${environ}.${method}`),
    readsVariable,
  );
  define(
    'env',
    ['pop', 'setdefault'].map((method) => `${environ}.${method}`),
    changesVariable,
  );
  define(
    'env',
    ['items', 'keys', 'values', '__iter__'].map((method) => `${environ}.${method}`),
    (site) => {
      site.capability('env_read');
      site.py.findings.wholeEnvironmentRead(site.node);
    },
  );
  // A copy is judged by what is done with it (handed to a child process, or sent away).
  define('watch', [`${environ}.copy`], () => ref('os.environ'));
}
define('env', ['os.getenv', 'os.getenvb'], readsVariable);
define('env', ['dotenv.load_dotenv', 'dotenv.dotenv_values', 'dotenv.find_dotenv'], (site) =>
  site.capability('env_read'));
define('pure', ['builtins.dict', 'copy.copy', 'copy.deepcopy'], (site) => {
  const source = site.value(0);
  return source && refNames(source).some((name) => name === 'os.environ' || name === 'os.environb')
    ? ref('os.environ')
    : UNKNOWN;
});

// --- files --------------------------------------------------------------------------------

/** A file opened for reading or writing: writes are file_write; reads outside the skill are file_read. */
function opens(site: CallSite, pathValue: Value | null, pathKey: string | null, mode: Value | null): Value {
  const modes = mode ? constantStrings(mode) : ['r'];
  const writes = !modes || modes.some((text) => /[wax+]/.test(text));
  const reads = !modes || modes.some((text) => /r|\+/.test(text) || !/[wax]/.test(text));
  if (!pathValue) {
    site.capability(writes ? 'file_write' : 'file_read');
    return ref('builtins.open()');
  }
  touches(site, pathValue, { writes, reads });
  if (writes) persists(site, pathValue);
  if (modes?.some((text) => /[w+]/.test(text)) ?? true) wipes(site, pathValue);
  const path = pathOf(pathValue);
  const file = pathKey ? { ...path, key: pathKey } : path;
  // Only a file opened for writing is followed (what is written to it may be a download).
  return writes ? ref('builtins.open()', 0, file) : unknown(0, file);
}

/** The capabilities and credential findings of touching the files a path value can be. */
function touches(site: CallSite, value: Value, access: { writes: boolean; reads: boolean }): void {
  for (const path of pathsOf(value)) {
    if (site.py.checkCredentialPath(site.node, path)) continue;
    if (path.root === 'temp') continue;
    if (access.writes) site.capability('file_write');
    if (access.reads && !access.writes && READ_OUTSIDE.has(path.root)) site.capability('file_read');
  }
}

/** Content written to a place that runs it later, or to the skill's own instructions, is persistence. */
function persists(site: CallSite, value: Value): void {
  for (const path of pathsOf(value)) {
    const what = path.root === 'temp' ? null : persistenceIn(path.text);
    if (what) site.issue('persistence', `Writes to ${what} (${path.text}).`);
  }
}

const openAt = (pathIndex: number, modeIndex: number) => (site: CallSite) => {
  const argument = site.argument(pathIndex, 'file') ?? site.argument(pathIndex, 'filename');
  const value = argument ? site.py.argumentValue(argument) : null;
  return opens(site, value, argument && value ? site.py.pathKey(argument, value) : null, site.value(modeIndex, 'mode'));
};

define('file_read', [
  'builtins.open',
  'codecs.open',
  'io.FileIO',
  'gzip.open',
  'bz2.open',
  'lzma.open',
  'bz2.BZ2File',
  'gzip.GzipFile',
  'lzma.LZMAFile',
  'tarfile.open',
  'zipfile.ZipFile',
], openAt(0, 1));
define('file_read', ['pathlib.Path().open'], (site) => {
  const receiver = site.receiver;
  return opens(site, receiver, receiver ? site.py.pathKey(null, receiver) : null, site.value(0, 'mode'));
});
define('file_read', ['os.open'], (site) => {
  const path = site.value(0, 'path');
  const flags = site.argumentNode(1, 'flags');
  const writes = flags !== null && /O_(WRONLY|RDWR|CREAT|APPEND|TRUNC)/.test(site.py.text(flags));
  if (path) touches(site, path, { writes, reads: !writes });
  if (path && writes) persists(site, path);
});
/** Content written to an open file: a download when the content was fetched. */
define('watch', ['builtins.open().write', 'builtins.open().writelines'], (site) => {
  const content = site.value(0);
  const key = site.receiver?.kind === 'ref' ? site.receiver.path?.key : undefined;
  if (content && key && taintOf(content) & DOWNLOADED) site.py.findings.downloaded(key);
});
define('watch', ['shutil.copyfileobj'], (site) => {
  const source = site.value(0);
  const target = site.value(1);
  const key = target?.kind === 'ref' ? target.path?.key : undefined;
  if (source && key && taintOf(source) & DOWNLOADED) site.py.findings.downloaded(key);
});

const writesPaths =
  (...indexes: number[]) =>
  (site: CallSite): void => {
    const paths = indexes.flatMap((index) => {
      const value = site.value(index);
      return value ? [value] : [];
    });
    if (paths.length === 0) site.capability('file_write');
    for (const path of paths) touches(site, path, { writes: true, reads: false });
  };

define('file_write', [
  'os.mkdir',
  'os.makedirs',
  'os.chmod',
  'os.lchmod',
  'os.chown',
  'os.lchown',
  'os.mkfifo',
  'os.mknod',
  'os.utime',
  'shutil.chown',
  'shutil.make_archive',
], writesPaths(0));
define('file_write', ['os.remove', 'os.unlink', 'os.rmdir', 'os.removedirs', 'os.truncate'], (site) => {
  writesPaths(0)(site);
  const target = site.value(0, 'path');
  if (target) wipes(site, target);
});
define('file_write', ['shutil.rmtree'], (site) => {
  writesPaths(0)(site);
  const target = site.value(0, 'path');
  if (target) wipes(site, target);
  for (const path of target ? pathsOf(target) : [])
    if (destroys(path)) site.issue('destructive-command', `Deletes ${path.text} and everything in it.`);
});

/**
 * Whether deleting a path destroys the system or a home folder (shell-paths.ts), read as the
 * shell rules read `rm -rf "$DIR"`: every unknown part left empty. A path whose start is computed,
 * temporary or the skill's own says nothing.
 */
function destroys(path: PathInfo): boolean {
  if (path.root !== 'home' && path.root !== 'absolute' && path.root !== 'relative') return false;
  return path.text !== '' && isDestructiveTarget(path.text.replace(/\*/g, ''));
}

/**
 * A file found by walking a folder tree (its path holds `**`: `rglob`, `os.walk`, a recursive
 * glob) deleted or overwritten: every file under the tree is, which destroys the user's or the
 * system's files when the tree is one of theirs (a tree the code created, or the project's, is its own).
 */
function wipes(site: CallSite, value: Value): void {
  for (const path of pathsOf(value)) {
    const tree = walkedTree(path);
    if (tree !== null && isPreciousTree(tree))
      site.issue('destructive-command', `Deletes or overwrites every file under ${treeName(tree)} (${tree}).`);
  }
}

/** The folder a walked path is under (unknown parts left empty, as `destroys` reads them), or null. */
function walkedTree(path: PathInfo): string | null {
  const at = path.text.indexOf('**');
  if (at < 0 || (path.root !== 'home' && path.root !== 'absolute' && path.root !== 'relative')) return null;
  const tree = path.text
    .slice(0, at)
    .replace(/\*/g, '')
    .replace(/(?<=.)[\\/]+$/, '');
  if (tree === '' || tree === '/') return path.root === 'relative' ? '.' : '/';
  return tree;
}

const treeName = (tree: string): string =>
  /^~[\\/]?$/.test(tree)
    ? 'the home folder'
    : tree === '/'
      ? 'the filesystem root'
      : tree.startsWith('~')
        ? 'a folder of the home folder'
        : 'a system folder';

define('file_write', ['os.rename', 'os.renames', 'os.replace', 'os.link', 'os.symlink'], (site) => {
  writesPaths(0, 1)(site);
  const target = site.value(1, 'dst');
  if (target) persists(site, target);
});
define('file_write', [
  'shutil.copy',
  'shutil.copy2',
  'shutil.copyfile',
  'shutil.copytree',
  'shutil.move',
  'shutil.copymode',
  'shutil.copystat',
], (site) => {
  const source = site.value(0, 'src');
  if (source) touches(site, source, { writes: false, reads: true });
  writesPaths(1)(site);
  const target = site.value(1, 'dst');
  if (target) persists(site, target);
  if (target) wipes(site, target);
});
define('file_write', ['shutil.unpack_archive'], writesPaths(1));
for (const archive of ['tarfile.open()', 'tarfile.TarFile()', 'zipfile.ZipFile()'])
  define('file_write', [`${archive}.extractall`, `${archive}.extract`], (site) => site.capability('file_write'));

const receiverPath = (site: CallSite): Value => site.receiver ?? UNKNOWN;
define(
  'file_write',
  ['touch', 'mkdir', 'chmod', 'lchmod'].map((method) => `pathlib.Path().${method}`),
  (site) => touches(site, receiverPath(site), { writes: true, reads: false }),
);
define(
  'file_write',
  ['unlink', 'rmdir'].map((method) => `pathlib.Path().${method}`),
  (site) => {
    touches(site, receiverPath(site), { writes: true, reads: false });
    wipes(site, receiverPath(site));
  },
);
define(
  'file_write',
  ['symlink_to', 'hardlink_to', 'link_to'].map((method) => `pathlib.Path().${method}`),
  (site) => {
    touches(site, receiverPath(site), { writes: true, reads: false });
    persists(site, receiverPath(site));
  },
);
define('file_write', ['pathlib.Path().rename', 'pathlib.Path().replace'], (site) => {
  touches(site, receiverPath(site), { writes: true, reads: false });
  const target = site.value(0, 'target');
  if (target) touches(site, target, { writes: true, reads: false });
  if (target) persists(site, target);
});
define('file_write', ['pathlib.Path().write_text', 'pathlib.Path().write_bytes'], (site) => {
  const receiver = receiverPath(site);
  touches(site, receiver, { writes: true, reads: false });
  persists(site, receiver);
  wipes(site, receiver);
  const content = site.value(0, 'data');
  const key = site.py.pathKey(null, receiver);
  if (content && key && taintOf(content) & DOWNLOADED) site.py.findings.downloaded(key);
});
define(
  'file_read',
  ['read_text', 'read_bytes'].map((method) => `pathlib.Path().${method}`),
  (site) => touches(site, receiverPath(site), { writes: false, reads: true }),
);

/**
 * A folder listed or walked: one item that stands for each file found, its path under the folder
 * (`**` where the walk descends into every subfolder).
 */
const listing = (site: CallSite, folder: Value, pattern: Value, item: (path: PathInfo) => Value): Value => {
  touches(site, folder, { writes: false, reads: true });
  const items = pathsOf(folder).flatMap((base) => pathsOf(pattern).map((part) => item(joinPaths([base, part]))));
  return { kind: 'seq', items: items.slice(0, MAX_OPTIONS), taint: 0 };
};
const pathObject = (path: PathInfo): Value => ref('pathlib.Path()', 0, path);

/**
 * A folder listed by a function that calls itself on what it finds: a walk of every folder under
 * the one it is first called with. `folder` is the listed expression.
 */
const listingOrWalk = (
  site: CallSite,
  folder: Value,
  folderNode: SyntaxNode | null,
  item: (path: PathInfo) => Value,
) => {
  const walked = folderNode ? site.py.recursiveFolder(site.node, folderNode) : null;
  return walked ? listing(site, walked, str('**/*'), item) : listing(site, folder, str('*'), item);
};

/** The object a method is called on, as written (`d` in `d.iterdir()`). */
const receiverNode = (site: CallSite): SyntaxNode | null => {
  const callee = site.node.childForFieldName('function');
  return callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
};

define('file_read', ['pathlib.Path().iterdir'], (site) =>
  listingOrWalk(site, receiverPath(site), receiverNode(site), pathObject));
define('file_read', ['pathlib.Path().glob'], (site) =>
  listing(site, receiverPath(site), site.value(0, 'pattern') ?? str('*'), pathObject));
define('file_read', ['pathlib.Path().rglob'], (site) =>
  listing(
    site,
    receiverPath(site),
    str(`**/${constantString(site.value(0, 'pattern') ?? UNKNOWN) ?? '*'}`),
    pathObject,
  ));
define('file_read', ['os.listdir'], (site) => {
  touches(site, site.value(0, 'path') ?? str('.'), { writes: false, reads: true });
});
define('file_read', ['os.scandir'], (site) =>
  listingOrWalk(site, site.value(0, 'path') ?? str('.'), site.argumentNode(0, 'path'), (path) =>
    ref('os.DirEntry', 0, path),
  ));
/** `os.walk(top)`: (folder, subfolders, files) for every folder under `top`. */
define('file_read', ['os.walk'], (site) =>
  listing(site, site.value(0, 'top') ?? str('.'), str('**'), (path) => ({
    kind: 'seq',
    items: [unknown(0, path), UNKNOWN, UNKNOWN],
    taint: 0,
  })));
/** `glob.glob(pattern)`: `**` descends only with `recursive=True`. */
define('file_read', ['glob.glob', 'glob.iglob'], (site) => {
  const recursive = site.keyword('recursive');
  const pattern = site.value(0, 'pathname') ?? str('*');
  const descends = recursive !== null && alternatives(recursive).some(isTruthy);
  touches(site, pattern, { writes: false, reads: true });
  const items = pathsOf(descends ? pattern : rooted(pattern, flatGlob, false)).map((path) => unknown(0, path));
  return { kind: 'seq', items: items.slice(0, MAX_OPTIONS), taint: 0 };
});
const flatGlob = (path: PathInfo): PathInfo => ({ ...path, text: path.text.replace(/\*\*/g, '*') });

// --- paths --------------------------------------------------------------------------------

/** A path built from parts: constant when every part is, flagged when it names a credential store. */
function builtPath(site: CallSite, parts: readonly Value[], object: boolean): Value {
  const each = combinations(parts);
  if (each && each.length > 1) return union(each.map((combination) => builtPath(site, combination, object)));
  const paths = parts.map(pathOf);
  const path = joinPaths(paths);
  const taint = parts.reduce((sum, part) => sum | taintOf(part), 0);
  site.py.checkCredentialPath(site.node, path);
  if (object) return ref('pathlib.Path()', taint, path);
  return parts.every((part) => part.kind === 'str') ? str(path.text, taint) : unknown(taint, path);
}

/** The same path with another text and the same root. */
const rooted = (value: Value, change: (path: PathInfo) => PathInfo, object: boolean): Value =>
  union(alternatives(value).map((option) => rootedOne(option, change, object)));

const rootedOne = (value: Value, change: (path: PathInfo) => PathInfo, object: boolean): Value => {
  const path = change(pathOf(value));
  if (object) return ref('pathlib.Path()', taintOf(value), path);
  return value.kind === 'str' && path.root !== 'home' ? str(path.text, value.taint) : unknown(taintOf(value), path);
};

// Paths built as strings are only followed into the calls that use them; Path objects are followed
// themselves once bound to a name (`p = Path(x)` then `p.write_text(…)`).
define('pure', ['os.path.join'], (site) => builtPath(site, site.rest(0) ?? [UNKNOWN], false));
define('builder', ['pathlib.Path'], (site) => {
  const parts = site.rest(0);
  return parts && parts.length === 0
    ? ref('pathlib.Path()', 0, { root: 'relative', text: '.' })
    : builtPath(site, parts ?? [UNKNOWN], true);
});
define('builder', ['pathlib.Path().joinpath'], (site) =>
  builtPath(site, [receiverPath(site), ...(site.rest(0) ?? [UNKNOWN])], true));
define('builder', ['pathlib.Path.home'], () => ref('pathlib.Path()', 0, { root: 'home', text: '~' }));
define('builder', ['pathlib.Path.cwd'], () => ref('pathlib.Path()', 0, { root: 'relative', text: '.' }));
define('pure', ['os.getcwd', 'os.getcwdb'], () => unknown(0, { root: 'relative', text: '.' }));
const expandUser = (path: PathInfo): PathInfo => (path.text.startsWith('~') ? { root: 'home', text: path.text } : path);
define('pure', ['os.path.expanduser'], (site) => {
  const value = site.value(0) ?? UNKNOWN;
  const result = rooted(value, expandUser, false);
  for (const path of pathsOf(result)) site.py.checkCredentialPath(site.node, path);
  return result;
});
define('builder', ['pathlib.Path().expanduser'], (site) => {
  const result = rooted(receiverPath(site), expandUser, true);
  for (const path of pathsOf(result)) site.py.checkCredentialPath(site.node, path);
  return result;
});
define('pure', ['os.path.expandvars'], (site) => {
  const value = site.value(0) ?? UNKNOWN;
  const text = constantString(value);
  if (text === null || !/\$\{?HOME\}?|%USERPROFILE%/.test(text)) return value;
  const path = { root: 'home' as const, text: text.replace(/\$\{?HOME\}?|%USERPROFILE%/g, '~') };
  site.py.checkCredentialPath(site.node, path);
  return unknown(taintOf(value), path);
});
define('pure', [
  'os.path.abspath',
  'os.path.realpath',
  'os.path.normpath',
  'os.path.normcase',
  'os.fspath',
  'os.fsencode',
  'os.fsdecode',
], (site) => site.value(0) ?? UNKNOWN);
define('pure', ['os.path.dirname'], (site) => rooted(site.value(0) ?? UNKNOWN, parentOf, false));
define(
  'builder',
  ['resolve', 'absolute', 'with_name', 'with_suffix', 'with_stem'].map((method) => `pathlib.Path().${method}`),
  (site) => rooted(receiverPath(site), (path) => path, true),
);
/** `p.relative_to(base)`: a path relative to somewhere else, computed. */
define('builder', ['pathlib.Path().relative_to'], () => ref('pathlib.Path()', 0, { root: 'relative', text: '*' }));
const temporary = (site: CallSite): Value => unknown(0, { root: 'temp', text: `<tmp@${site.node.startIndex}>` });
define('pure', [
  'tempfile.gettempdir',
  'tempfile.gettempdirb',
  'tempfile.mkdtemp',
  'tempfile.mktemp',
  'tempfile.mkstemp',
], temporary);
define('pure', [
  'tempfile.NamedTemporaryFile',
  'tempfile.TemporaryFile',
  'tempfile.SpooledTemporaryFile',
  'tempfile.TemporaryDirectory',
], (site) => ref(`${site.callee}()`, 0, { root: 'temp', text: `<tmp@${site.node.startIndex}>` }));

// --- decoding and strings -----------------------------------------------------------------

/** A decoder: its result is a payload a reader does not see, folded when the input is a constant. */
const decoder =
  (fold?: (text: string) => string | null) =>
  (site: CallSite): Value => {
    const input = site.value(0) ?? UNKNOWN;
    const text = fold ? constantString(input) : null;
    const folded = text !== null && fold ? fold(text) : null;
    return folded !== null ? str(folded, DECODED) : unknown(taintOf(input) | DECODED);
  };

define('pure', [
  'base64.b64decode',
  'base64.standard_b64decode',
  'base64.decodebytes',
  'base64.decodestring',
  'binascii.a2b_base64',
], decoder((text) => decodeBase64(text, false)));
define('pure', ['base64.urlsafe_b64decode'], decoder((text) => decodeBase64(text, true)));
define('pure', ['base64.b16decode', 'binascii.unhexlify', 'binascii.a2b_hex', 'builtins.bytes.fromhex'], decoder(
  decodeHex,
));
define('pure', [
  'base64.b32decode',
  'base64.b32hexdecode',
  'base64.b85decode',
  'base64.a85decode',
  'binascii.a2b_uu',
  'binascii.a2b_qp',
  'binascii.a2b_hqx',
  'binascii.rledecode_hqx',
  'zlib.decompress',
  'zlib.decompressobj',
  'lzma.decompress',
  'bz2.decompress',
  'gzip.decompress',
  'quopri.decodestring',
  'uu.decode',
], decoder());
/** `codecs.decode(x, "rot13")`: nothing ordinary needs ROT13, so it is reported wherever it is. */
define('watch', [
  'codecs.decode',
  'codecs.encode',
  'codecs.lookup',
  'codecs.getdecoder',
  'codecs.getencoder',
  'codecs.iterdecode',
], (site) => {
  const codecIndex =
    site.callee === 'codecs.decode' || site.callee === 'codecs.encode' || site.callee === 'codecs.iterdecode' ? 1 : 0;
  const codec = site.value(codecIndex, 'encoding');
  const names = codec ? constantStrings(codec) : null;
  const input = site.value(0) ?? UNKNOWN;
  const normal = names?.map((name) => name.toLowerCase().replace(/[-_]/g, ''));
  if (normal?.some((name) => name === 'rot13')) {
    site.issue('obfuscation', 'Decodes ROT13 text (nothing ordinary needs ROT13).');
    const text = constantString(input);
    return text !== null && codecIndex === 1 ? str(rot13(text), DECODED) : unknown(taintOf(input) | DECODED);
  }
  if (site.callee === 'codecs.decode' && (!normal || normal.some((name) => BINARY_CODECS.has(name))))
    return unknown(taintOf(input) | DECODED);
  return unknown(taintOf(input));
});
const BINARY_CODECS = new Set([
  'hex',
  'hexcodec',
  'base64',
  'base64codec',
  'zlib',
  'zip',
  'zlibcodec',
  'bz2',
  'bz2codec',
  'uu',
  'uucodec',
  'quopri',
  'quoprocodec',
  'quotedprintable',
]);

define('pure', ['builtins.chr'], (site) => {
  const code = site.value(0);
  return code?.kind === 'int' && code.value >= 0 && code.value <= 0x10ffff
    ? str(String.fromCodePoint(code.value), DECODED)
    : unknown(DECODED);
});
define('pure', ['builtins.bytes'], (site) => {
  const input = site.value(0);
  if (!input) return str('');
  if (input.kind === 'seq' && input.items.every((item) => item.kind === 'int'))
    return str(
      String.fromCharCode(...input.items.map((item) => (item.kind === 'int' ? item.value & 0xff : 0))),
      DECODED,
    );
  return input.kind === 'str' ? input : unknown(taintOf(input) | (input.kind === 'seq' ? DECODED : 0));
});
define('pure', ['builtins.str', 'textwrap.dedent', 'builtins.format', 'typing.cast'], (site) => {
  const input = site.value(site.callee === 'typing.cast' ? 1 : 0);
  if (!input) return str('');
  if (input.kind === 'str') return input;
  return input.kind === 'ref' || input.kind === 'unknown' ? unknown(input.taint, input.path) : unknown(taintOf(input));
});
define('pure', ['builtins.reversed'], (site) => {
  const input = site.value(0) ?? UNKNOWN;
  return input.kind === 'str'
    ? str([...input.text].reverse().join(''), input.taint | DECODED)
    : unknown(taintOf(input) | DECODED);
});
define('pure', ['builtins.list', 'builtins.tuple'], (site) => {
  const input = site.value(0);
  if (!input) return { kind: 'seq', items: [], taint: 0 };
  if (input.kind === 'seq') return input;
  if (input.kind === 'str')
    return { kind: 'seq', items: [...input.text].map((char) => str(char, input.taint)), taint: 0 };
  return unknown(taintOf(input));
});
define('pure', ['builtins.map'], (site) => {
  const fn = site.value(0);
  const items = site.value(1) ?? UNKNOWN;
  const chr = fn !== null && refNames(fn).includes('builtins.chr');
  if (chr && items.kind === 'seq' && items.items.every((item) => item.kind === 'int'))
    return {
      kind: 'seq',
      items: items.items.map((item) =>
        str(String.fromCodePoint(item.kind === 'int' ? item.value & 0x1fffff : 0), DECODED),
      ),
      taint: 0,
    };
  return unknown(taintOf(items) | (chr ? DECODED : 0));
});
define('pure', ['shlex.split'], (site) => {
  const input = site.value(0, 's') ?? UNKNOWN;
  const text = constantString(input);
  const words = text !== null ? shellWords(text) : null;
  return words
    ? { kind: 'seq', items: words.map((word) => str(word, input.kind === 'str' ? input.taint : 0)), taint: 0 }
    : unknown(taintOf(input));
});
define('pure', ['shlex.join'], (site) => {
  const input = site.value(0) ?? UNKNOWN;
  const texts = input.kind === 'seq' ? input.items.map(constantString) : null;
  return texts && texts.every((text) => text !== null)
    ? str((texts as string[]).map(quoteWord).join(' '))
    : unknown(taintOf(input));
});
define('pure', ['shlex.quote'], (site) => {
  const input = site.value(0) ?? UNKNOWN;
  const text = constantString(input);
  return text !== null ? str(quoteWord(text)) : unknown(taintOf(input));
});
define('pure', ['json.loads', 'json.load', 'ast.literal_eval', 'io.BytesIO', 'io.StringIO', 'textwrap.indent'], (
  site,
) => unknown(taintOf(site.value(0) ?? UNKNOWN)));

/** Members whose names alone say they run programs or code (`operator.attrgetter("system")`). */
const DANGEROUS_MEMBERS = new Set([
  'system',
  'popen',
  'exec',
  'eval',
  'compile',
  '__import__',
  'import_module',
  'run_path',
  'loads',
  'Popen',
  'run',
  'call',
  'check_output',
  'spawn',
]);

// --- the standard library's other sinks --------------------------------------------------

/**
 * `logging.config.dictConfig`: a `"()"` key names a factory that is imported and called with the
 * rest of its entry (`{"()": "os.system", "command": …}`). The configuration is rarely a display
 * at the call, so a `"()"` key anywhere in the file is taken as handed to it.
 */
define('watch', ['logging.config.dictConfig'], (site) => {
  if (/(["'])\(\)\1\s*:/.test(site.py.source))
    site.issue('dynamic-code', 'Configures logging with a "()" factory, which dictConfig imports and calls by name.');
});

/** Whether a string handed to a sink is not known: computed, decoded or downloaded (a constant or an object is known). */
function isComputedText(value: Value): boolean {
  return alternatives(value).some((option) => {
    if (option.kind === 'unknown') return option.path?.root !== 'skill';
    if (option.kind === 'seq') return option.items.some(isComputedText);
    return option.kind === 'str' && (option.taint & (DECODED | DOWNLOADED)) !== 0;
  });
}

/** A module imported by name: a constant name is an import like any other. */
function importsNamed(site: CallSite): void {
  const name = site.value(0);
  if (name && isComputedText(name))
    site.issue('dynamic-code', `Imports a module named at run time with ${site.callee}().`);
}

/** Sinks that return the object a dotted name (`os.system`, `os:system`) names. */
const OBJECT_RESOLVERS = new Set(['pydoc.locate', 'pkgutil.resolve_name']);

/** A dotted name resolved to an object: reported whatever the name, and followed when it is a constant. */
function resolvesName(site: CallSite): Value | void {
  site.issue('dynamic-code', `Resolves a name given as a string to an object with ${site.callee}().`);
  const name = OBJECT_RESOLVERS.has(site.callee) ? site.value(0, 'name') : null;
  const names = name ? constantStrings(name) : null;
  if (!names) return;
  return union(names.map((text) => site.py.importedModule(site.node, text.replace(':', '.'))));
}

/**
 * `timeit.timeit(stmt, setup)`: a callable is timed, a string is run. A value of unknown origin is
 * taken for a callable (a function, a lambda, a parameter) unless it was decoded or downloaded.
 */
function runsCodeOrCallable(site: CallSite): void {
  const isCode = (value: Value | null): boolean =>
    value !== null &&
    (alternatives(value).some((option) => option.kind === 'str') || (taintOf(value) & (DECODED | DOWNLOADED)) !== 0);
  const index = [site.value(0, 'stmt'), site.value(1, 'setup')].findIndex(isCode);
  if (index >= 0) runsCode(site, `Runs code given as a string with ${site.callee}().`, index, index ? 'setup' : 'stmt');
}

const SINK_RULES: Readonly<Record<SinkKind, Rule>> = {
  imports: { category: 'watch', run: importsNamed },
  evaluates: {
    category: 'dynamic',
    run: (site) => runsCode(site, `Runs code given at run time with ${site.callee}().`),
  },
  'resolves-name': { category: 'dynamic', run: resolvesName },
  unpickles: {
    category: 'dynamic',
    run: (site) => runsCode(site, `Deserialises data that can carry code with ${site.callee}().`),
  },
  spawns: { category: 'process', run: (site) => site.capability('process_exec') },
  native: { category: 'native', run: native },
};

/** A sink that only acts when a keyword is true (`register_instance(obj, allow_dotted_names=True)`). */
const armed =
  (keyword: string, rule: Rule): Rule['run'] =>
  (site) => {
    const value = site.keyword(keyword);
    return value && alternatives(value).some(isTruthy) ? rule.run(site) : undefined;
  };

// Every sink of the standard library no rule above refines is reported by its kind.
for (const [name, kind] of SINKS) {
  const canonical = canonicalName(name);
  if (name.endsWith('.*') || ruleFor(canonical)) continue;
  const rule = CALLABLE_OR_CODE.has(canonical)
    ? { category: 'dynamic' as const, run: runsCodeOrCallable }
    : SINK_RULES[kind];
  const keyword = ARMING_KEYWORDS.get(canonical);
  RULES.set(canonical, keyword ? { category: 'watch', run: armed(keyword, rule) } : rule);
}

// --- forwarders ---------------------------------------------------------------------------

/** Where a function that calls another finds it and its arguments. */
export interface Forwarder {
  /** Position (or keyword) of the function. */
  fn: number;
  fnKeyword?: string;
  /** The arguments: the positional ones after the function, a tuple (`args=`), or each item of an iterable (`map`). */
  args: { from: number } | { tuple: number; keyword: string } | { each: number };
  /** Keyword arguments forwarded as themselves (`functools.partial(f, shell=True)`). */
  keywords: boolean;
}

export const FORWARDERS: ReadonlyMap<string, Forwarder> = new Map<string, Forwarder>([
  ['functools.partial', { fn: 0, args: { from: 1 }, keywords: true }],
  ['asyncio.to_thread', { fn: 0, args: { from: 1 }, keywords: true }],
  ['atexit.register', { fn: 0, args: { from: 1 }, keywords: true }],
  ['anyio.to_thread.run_sync', { fn: 0, args: { from: 1 }, keywords: false }],
  ['trio.to_thread.run_sync', { fn: 0, args: { from: 1 }, keywords: false }],
  ['starlette.concurrency.run_in_threadpool', { fn: 0, args: { from: 1 }, keywords: true }],
  ['threading.Thread', { fn: 1, fnKeyword: 'target', args: { tuple: 2, keyword: 'args' }, keywords: false }],
  ['threading.Timer', { fn: 1, fnKeyword: 'function', args: { tuple: 2, keyword: 'args' }, keywords: false }],
  ['multiprocessing.Process', { fn: 1, fnKeyword: 'target', args: { tuple: 2, keyword: 'args' }, keywords: false }],
  ['builtins.map', { fn: 0, args: { each: 1 }, keywords: false }],
]);

/** Methods that call the function they are given, whatever object they belong to (executors, loops, pools). */
export const FORWARDING_METHODS: ReadonlyMap<string, Forwarder> = new Map<string, Forwarder>([
  ['run_in_executor', { fn: 1, args: { from: 2 }, keywords: false }],
  ['submit', { fn: 0, args: { from: 1 }, keywords: true }],
  ['apply_async', { fn: 0, args: { tuple: 1, keyword: 'args' }, keywords: false }],
  ['start_soon', { fn: 0, args: { from: 1 }, keywords: false }],
  ['call_soon', { fn: 0, args: { from: 1 }, keywords: false }],
  ['call_soon_threadsafe', { fn: 0, args: { from: 1 }, keywords: false }],
  ['call_later', { fn: 1, args: { from: 2 }, keywords: false }],
  ['run_sync', { fn: 0, args: { from: 1 }, keywords: false }],
]);

/** Consumers that look at a value without calling it (`callable(os.system)`, `getattr(os, "name")`). */
export const INSPECTORS = new Set([
  'builtins.getattr',
  'builtins.hasattr',
  'builtins.setattr',
  'builtins.delattr',
  'builtins.vars',
  'builtins.dir',
  'builtins.id',
  'builtins.type',
  'builtins.isinstance',
  'builtins.issubclass',
  'builtins.callable',
  'builtins.repr',
  'builtins.print',
  'builtins.hash',
  'builtins.object.__getattribute__',
  'inspect.signature',
  'inspect.getdoc',
  'inspect.ismodule',
  'inspect.isfunction',
]);

// Every name a non-pure rule has, and every prefix of it, is followed through aliases.
for (const [name, rule] of RULES) {
  if (rule.category === 'pure') continue;
  const parts = name.split('.');
  RULED_PARENTS.add(parts.slice(0, -1).join('.'));
  for (let index = 1; index <= parts.length; index++) {
    const prefix = parts.slice(0, index).join('.');
    FOLLOWED.add(prefix);
    if (prefix.endsWith('()')) FOLLOWED.add(prefix.slice(0, -2));
  }
}

/** Builtins worth reading wherever they appear (`eval`, `open`, `getattr`, …). */
export const FOLLOWED_BUILTINS: readonly string[] = [
  ...new Set(
    [...FOLLOWED].filter((name) => /^builtins\.[^.()]+$/.test(name)).map((name) => name.slice('builtins.'.length)),
  ),
  '__builtins__',
];

/** The members of a module a star import brings that the rules follow (`from os import *` brings `system`). */
export function followedMembers(module: string): string[] {
  const prefix = `${module}.`;
  const members = new Set<string>();
  for (const name of FOLLOWED)
    if (name.startsWith(prefix)) members.add(name.slice(prefix.length).split('.')[0] as string);
  return [...members].map((member) => member.replace(/\(\)$/, ''));
}
