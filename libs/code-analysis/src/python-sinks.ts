/**
 * Where the Python standard library turns a string (or bytes) into code, a module, an object or a
 * process: every function documented to import a module by name, evaluate or compile-and-run
 * code, resolve a dotted name to an object, unpickle or unmarshal, spawn a process or load native
 * code. Drawn up module by module from `sys.stdlib_module_names` (python-stdlib-modules.ts); every
 * module there is either a key below (it, or one of its submodules, has a sink) or in
 * NO_SINK_MODULES, and python-sinks.spec.ts fails when a module is neither. The rules
 * (python-rules.ts) refine some of these names; every other one is reported by its kind.
 */

/**
 * What a sink does with what it is given:
 * - imports: imports a module named by a string (a constant name is an import like any other);
 * - evaluates: runs code given as a string or file (or compiles it to be run);
 * - resolves-name: turns a dotted name into the object it names (and often calls it);
 * - unpickles: deserialises data that can carry code (pickle, marshal, shelve);
 * - spawns: starts a process;
 * - native: loads or calls native code.
 */
export type SinkKind = 'imports' | 'evaluates' | 'resolves-name' | 'unpickles' | 'spawns' | 'native';

/** `*`: every member of the module. Members of instances are written `Class().method`. */
const EVERY_MEMBER = '*';

/** Module (dotted for a submodule) → member → what it does with a string. */
export const STDLIB_SINKS: Readonly<Record<string, Readonly<Record<string, SinkKind>>>> = {
  _bootsubprocess: { Popen: 'spawns', check_output: 'spawns' },
  _ctypes: { [EVERY_MEMBER]: 'native' },
  _frozen_importlib: { __import__: 'imports', _gcd_import: 'imports' },
  _frozen_importlib_external: {
    SourceFileLoader: 'evaluates',
    SourcelessFileLoader: 'evaluates',
    ExtensionFileLoader: 'native',
    spec_from_file_location: 'imports',
  },
  _imp: {
    create_builtin: 'imports',
    exec_builtin: 'imports',
    init_frozen: 'imports',
    get_frozen_object: 'evaluates',
    create_dynamic: 'native',
    exec_dynamic: 'native',
  },
  _osx_support: { _read_output: 'spawns' },
  _pickle: { loads: 'unpickles', load: 'unpickles', Unpickler: 'unpickles' },
  _posixsubprocess: { fork_exec: 'spawns' },
  _tkinter: { 'create().eval': 'evaluates', 'create().call': 'evaluates', 'create().evalfile': 'evaluates' },
  _winapi: { CreateProcess: 'spawns' },
  asyncio: {
    create_subprocess_shell: 'spawns',
    create_subprocess_exec: 'spawns',
    'get_event_loop().subprocess_shell': 'spawns',
    'get_event_loop().subprocess_exec': 'spawns',
    'get_running_loop().subprocess_shell': 'spawns',
    'get_running_loop().subprocess_exec': 'spawns',
  },
  'asyncio.subprocess': { create_subprocess_shell: 'spawns', create_subprocess_exec: 'spawns' },
  bdb: { 'Bdb().run': 'evaluates', 'Bdb().runeval': 'evaluates', 'Bdb().runctx': 'evaluates' },
  builtins: {
    eval: 'evaluates',
    exec: 'evaluates',
    compile: 'evaluates',
    __import__: 'imports',
    getattr: 'resolves-name',
    // Calls the hook PYTHONBREAKPOINT names (`os.system` as well as `pdb.set_trace`).
    breakpoint: 'resolves-name',
    // `help("name")` imports the module it names (`help("modules")` imports them all).
    help: 'imports',
  },
  cProfile: {
    run: 'evaluates',
    runctx: 'evaluates',
    'Profile().run': 'evaluates',
    'Profile().runctx': 'evaluates',
  },
  code: {
    InteractiveInterpreter: 'evaluates',
    InteractiveConsole: 'evaluates',
    interact: 'evaluates',
    compile_command: 'evaluates',
  },
  codeop: { compile_command: 'evaluates', Compile: 'evaluates', CommandCompiler: 'evaluates' },
  ctypes: { [EVERY_MEMBER]: 'native' },
  'distutils.core': { run_setup: 'evaluates' },
  'distutils.spawn': { spawn: 'spawns' },
  doctest: {
    testmod: 'evaluates',
    testfile: 'evaluates',
    run_docstring_examples: 'evaluates',
    debug: 'evaluates',
    debug_src: 'evaluates',
    debug_script: 'evaluates',
    DocTestSuite: 'evaluates',
    DocFileSuite: 'evaluates',
    'DocTestRunner().run': 'evaluates',
    'DebugRunner().run': 'evaluates',
  },
  ensurepip: { bootstrap: 'spawns' },
  'http.server': { CGIHTTPRequestHandler: 'spawns' },
  // `IMAP4_stream(command)` runs its command line with a shell.
  imaplib: { IMAP4_stream: 'spawns' },
  idlelib: { 'pyshell.main': 'evaluates', 'run.main': 'evaluates' },
  imp: {
    load_source: 'evaluates',
    load_module: 'evaluates',
    load_compiled: 'evaluates',
    load_package: 'evaluates',
    load_dynamic: 'native',
    reload: 'imports',
    init_builtin: 'imports',
    init_frozen: 'imports',
  },
  importlib: { import_module: 'imports', __import__: 'imports', reload: 'imports' },
  'importlib.machinery': {
    SourceFileLoader: 'evaluates',
    SourcelessFileLoader: 'evaluates',
    ExtensionFileLoader: 'native',
  },
  'importlib.metadata': { 'EntryPoint().load': 'resolves-name' },
  // Each takes a package (anchor) and imports it when it is given by name.
  'importlib.resources': {
    files: 'imports',
    open_text: 'imports',
    open_binary: 'imports',
    read_text: 'imports',
    read_binary: 'imports',
    path: 'imports',
    contents: 'imports',
    is_resource: 'imports',
  },
  'importlib.util': {
    find_spec: 'imports',
    spec_from_file_location: 'imports',
    spec_from_loader: 'imports',
    module_from_spec: 'imports',
  },
  // `get_annotations(obj, eval_str=True)` evaluates the annotations (see ARMING_KEYWORDS).
  inspect: { get_annotations: 'evaluates' },
  lib2to3: { 'refactor.RefactoringTool': 'imports', 'refactor.get_fixers_from_package': 'imports' },
  'logging.config': { dictConfig: 'resolves-name', fileConfig: 'evaluates', listen: 'evaluates' },
  // Runs the `test` command lines of the mailcap entries it matches.
  mailcap: { findmatch: 'spawns' },
  marshal: { loads: 'unpickles', load: 'unpickles' },
  multiprocessing: { set_executable: 'spawns', set_forkserver_preload: 'imports' },
  'multiprocessing.connection': {
    'Client().recv': 'unpickles',
    'Listener().accept().recv': 'unpickles',
  },
  'multiprocessing.forkserver': { set_forkserver_preload: 'imports' },
  'multiprocessing.reduction': { 'ForkingPickler.loads': 'unpickles' },
  operator: { attrgetter: 'resolves-name', methodcaller: 'resolves-name' },
  optparse: { 'Values().read_module': 'imports', 'Values().read_file': 'evaluates' },
  os: {
    system: 'spawns',
    popen: 'spawns',
    execl: 'spawns',
    execle: 'spawns',
    execlp: 'spawns',
    execlpe: 'spawns',
    execv: 'spawns',
    execve: 'spawns',
    execvp: 'spawns',
    execvpe: 'spawns',
    spawnl: 'spawns',
    spawnle: 'spawns',
    spawnlp: 'spawns',
    spawnlpe: 'spawns',
    spawnv: 'spawns',
    spawnve: 'spawns',
    spawnvp: 'spawns',
    spawnvpe: 'spawns',
    posix_spawn: 'spawns',
    posix_spawnp: 'spawns',
    startfile: 'spawns',
  },
  pdb: {
    run: 'evaluates',
    runeval: 'evaluates',
    runctx: 'evaluates',
    'Pdb().run': 'evaluates',
    'Pdb().runeval': 'evaluates',
    'Pdb().runctx': 'evaluates',
  },
  pickle: { loads: 'unpickles', load: 'unpickles', Unpickler: 'unpickles' },
  pipes: { 'Template().open': 'spawns', 'Template().copy': 'spawns' },
  pkgutil: {
    resolve_name: 'resolves-name',
    get_loader: 'imports',
    find_loader: 'imports',
    get_data: 'imports',
    walk_packages: 'imports',
  },
  profile: {
    run: 'evaluates',
    runctx: 'evaluates',
    'Profile().run': 'evaluates',
    'Profile().runctx': 'evaluates',
  },
  pty: { spawn: 'spawns' },
  pydoc: {
    locate: 'resolves-name',
    resolve: 'resolves-name',
    render_doc: 'resolves-name',
    doc: 'resolves-name',
    writedoc: 'resolves-name',
    importfile: 'evaluates',
    safeimport: 'imports',
    help: 'imports',
    apropos: 'imports',
  },
  // `Completer().complete("a.b.")` evaluates the dotted expression before the last dot.
  rlcompleter: { 'Completer().complete': 'resolves-name' },
  runpy: { run_module: 'imports', run_path: 'evaluates' },
  shelve: { open: 'unpickles', Shelf: 'unpickles', DbfilenameShelf: 'unpickles', BsdDbShelf: 'unpickles' },
  // A folder's .pth files run their `import` lines.
  site: {
    addsitedir: 'evaluates',
    addpackage: 'evaluates',
    main: 'evaluates',
    execsitecustomize: 'imports',
    execusercustomize: 'imports',
  },
  sqlite3: {
    'connect().load_extension': 'native',
    'Connection().load_extension': 'native',
    'dbapi2.connect().load_extension': 'native',
  },
  subprocess: {
    run: 'spawns',
    call: 'spawns',
    check_call: 'spawns',
    check_output: 'spawns',
    Popen: 'spawns',
    getoutput: 'spawns',
    getstatusoutput: 'spawns',
  },
  sys: { breakpointhook: 'resolves-name', setdlopenflags: 'native' },
  // Each takes a statement as a string or a callable (see CALLABLE_OR_CODE).
  timeit: { timeit: 'evaluates', repeat: 'evaluates', Timer: 'evaluates', main: 'evaluates' },
  // Tcl code runs programs (`exec`).
  tkinter: {
    'Tcl().eval': 'evaluates',
    'Tcl().call': 'evaluates',
    'Tcl().tk.eval': 'evaluates',
    'Tcl().tk.call': 'evaluates',
    'Tcl().tk.evalfile': 'evaluates',
    'Tk().eval': 'evaluates',
    'Tk().call': 'evaluates',
    'Tk().tk.eval': 'evaluates',
    'Tk().tk.call': 'evaluates',
    'Tk().tk.evalfile': 'evaluates',
  },
  tracemalloc: { 'Snapshot.load': 'unpickles' },
  trace: { 'Trace().run': 'evaluates', 'Trace().runctx': 'evaluates' },
  // Reads turtle.cfg from the working folder and evaluates its values.
  turtle: { config_dict: 'evaluates' },
  types: { FunctionType: 'evaluates', CodeType: 'evaluates', LambdaType: 'evaluates' },
  typing: { ForwardRef: 'evaluates' },
  unittest: {
    main: 'imports',
    'TestLoader().loadTestsFromName': 'imports',
    'TestLoader().loadTestsFromNames': 'imports',
    'TestLoader().discover': 'imports',
    'defaultTestLoader.loadTestsFromName': 'imports',
    'defaultTestLoader.loadTestsFromNames': 'imports',
    'defaultTestLoader.discover': 'imports',
  },
  // `patch("a.b.c")` imports `a.b` to replace `c` (`patch.object` and `patch.dict` are given objects).
  'unittest.mock': { patch: 'imports' },
  venv: { create: 'spawns', 'EnvBuilder().create': 'spawns' },
  // `-W` style filters name their warning category by a dotted name, which is imported.
  warnings: { _getcategory: 'imports', _setoption: 'imports' },
  webbrowser: { open: 'spawns', open_new: 'spawns', open_new_tab: 'spawns', get: 'spawns' },
  // `make_parser(["module"])` imports each parser module it is given.
  'xml.sax': { make_parser: 'imports' },
  // `register_instance(obj, allow_dotted_names=True)` lets a client reach any attribute chain.
  'xmlrpc.server': {
    resolve_dotted_attribute: 'resolves-name',
    'SimpleXMLRPCServer().register_instance': 'resolves-name',
    'SimpleXMLRPCDispatcher().register_instance': 'resolves-name',
    'CGIXMLRPCRequestHandler().register_instance': 'resolves-name',
    'DocXMLRPCServer().register_instance': 'resolves-name',
  },
  zipimport: { zipimporter: 'imports', 'zipimporter().load_module': 'evaluates' },
};

/**
 * Sinks that take a callable as readily as a string: only a string (or a value decoded or
 * downloaded) given to them is code (`timeit.timeit(work)` times a function).
 */
export const CALLABLE_OR_CODE: ReadonlySet<string> = new Set(['timeit.timeit', 'timeit.repeat', 'timeit.Timer']);

/** Sinks that only evaluate or resolve what they are given when a keyword says so. */
export const ARMING_KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['inspect.get_annotations', 'eval_str'],
  ...Object.keys(STDLIB_SINKS['xmlrpc.server'] ?? {})
    .filter((member) => member.endsWith('.register_instance'))
    .map((member): [string, string] => [`xmlrpc.server.${member}`, 'allow_dotted_names']),
]);

/**
 * Modules with no such sink: none of their functions imports, evaluates, resolves a name,
 * unpickles, spawns or loads native code given a string (what they do with files, the network
 * or the environment is the rules' business). Their sources were read for `eval`, `exec`,
 * `__import__`, `import_module`, pickle and marshal loads and process spawns: what remains runs
 * only what the module itself wrote (`namedtuple`, `dataclasses`, gettext's plural formulas), a
 * fixed list of modules (`dbm`, `encodings`) or a fixed program (`platform`, `uuid`).
 */
export const NO_SINK_MODULES: ReadonlySet<string> = new Set(
  `
__future__ _abc _aix_support _ast _asyncio _bisect _blake2 _bz2 _codecs _codecs_cn _codecs_hk
_codecs_iso2022 _codecs_jp _codecs_kr _codecs_tw _collections _collections_abc _compat_pickle
_compression _contextvars _crypt _csv _curses _curses_panel _datetime _dbm _decimal _elementtree
_functools _gdbm _hashlib _heapq _io _json _locale _lsprof _lzma _markupbase _md5 _msi
_multibytecodec _multiprocessing _opcode _operator _overlapped _posixshmem _py_abc _pydecimal _pyio
_queue _random _scproxy _sha1 _sha256 _sha3 _sha512 _signal _sitebuiltins _socket _sqlite3 _sre _ssl
_stat _statistics _string _strptime _struct _symtable _thread _threading_local _tokenize
_tracemalloc _typing _uuid _warnings _weakref _weakrefset _zoneinfo abc aifc antigravity argparse
array ast asynchat asyncore atexit audioop base64 binascii bisect bz2 calendar cgi cgitb chunk cmath
cmd codecs collections colorsys compileall concurrent configparser contextlib contextvars copy
copyreg crypt csv curses dataclasses datetime dbm decimal difflib dis email encodings enum errno
faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt
getpass gettext glob graphlib grp gzip hashlib heapq hmac html imghdr io ipaddress itertools json
keyword linecache locale lzma mailbox math mimetypes mmap modulefinder msilib msvcrt netrc nis
nntplib ntpath nturl2path numbers opcode ossaudiodev pathlib pickletools platform plistlib poplib
posixpath pprint pstats pwd py_compile pyclbr pydoc_data pyexpat queue quopri random re readline
reprlib resource sched secrets select selectors shlex shutil signal smtpd smtplib sndhdr socket
socketserver spwd sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct
sunau symtable sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading
time token tokenize tomllib traceback tty turtledemo unicodedata urllib uu uuid wave weakref winreg
winsound wsgiref xdrlib zipapp zipfile zlib zoneinfo
`
    .trim()
    .split(/\s+/),
);

/** Every sink as a qualified name (`pydoc.locate`, `tkinter.Tcl().eval`, `ctypes.*`) with its kind. */
export const SINKS: ReadonlyMap<string, SinkKind> = new Map(
  Object.entries(STDLIB_SINKS).flatMap(([module, members]) =>
    Object.entries(members).map(([member, kind]): [string, SinkKind] => [`${module}.${member}`, kind]),
  ),
);

/** The sinks of one kind, as qualified names. */
export const sinksOf = (kind: SinkKind): string[] =>
  [...SINKS].filter(([, sinkKind]) => sinkKind === kind).map(([name]) => name);

/** The sinks of one module, as qualified names (`code.interact`, …). */
export const sinksIn = (module: string): string[] =>
  Object.keys(STDLIB_SINKS[module] ?? {}).map((member) => `${module}.${member}`);

/** Modules whose every member is a sink of one kind (`ctypes`: native code). */
export const WHOLE_MODULE_SINKS: ReadonlyMap<string, SinkKind> = new Map(
  [...SINKS]
    .filter(([name]) => name.endsWith(`.${EVERY_MEMBER}`))
    .map(([name, kind]): [string, SinkKind] => [name.slice(0, -EVERY_MEMBER.length - 1), kind]),
);
