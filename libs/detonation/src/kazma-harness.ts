/**
 * The Python a detonation runs for a Kazma skill: imports the entry module as Kazma's loader does
 * (its folder first on `sys.path`), makes the skill object (the entry point's class, given a
 * context whose every attribute and call answers, awaitable or not), and calls each tool with
 * arguments built from its schema (or from its signature). Every failure is printed and the next
 * tool is called: what matters is what the calls do, not what they return.
 *
 * argv: the module's path, the class name ('' for none), and JSON `[{name, args}]` (`args` null:
 * built from the signature; an empty list: every public function or method).
 */
export const KAZMA_HARNESS = String.raw`import asyncio, importlib.util, inspect, json, os, sys

path, class_name, tools = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])


class Anything:
    """A context that answers everything: attributes, calls, awaits, iteration, items."""

    def __getattr__(self, name):
        return Anything()

    def __call__(self, *args, **kwargs):
        return Anything()

    def __await__(self):
        if False:
            yield
        return {}

    def __getitem__(self, key):
        return Anything()

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return True

    def __str__(self):
        return "test"


def sample(annotation):
    return {int: 1, float: 1.0, bool: True, dict: {}, list: [], bytes: b""}.get(annotation, "test")


def from_signature(function):
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {
        p.name: sample(p.annotation)
        for p in parameters
        if p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and p.name not in ("self", "cls")
    }


def call(name, function, args):
    arguments = from_signature(function) if args is None else args
    print("detonation: calling", name, json.dumps(arguments, default=str), flush=True)
    try:
        result = function(**arguments)
        if inspect.isawaitable(result):
            asyncio.run(asyncio.wait_for(result, 4))
    except BaseException as error:
        print("detonation:", name, "raised", type(error).__name__, error, flush=True)


sys.path.insert(0, os.path.dirname(path))
spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
try:
    spec.loader.exec_module(module)
except BaseException as error:
    print("detonation: import raised", type(error).__name__, error, flush=True)
    sys.exit(3)

target = module
if class_name:
    cls = getattr(module, class_name, None)
    for make in (lambda: cls(Anything()), lambda: cls()):
        try:
            target = make()
            break
        except BaseException as error:
            print("detonation: making", class_name, "raised", type(error).__name__, error, flush=True)

if not tools:
    tools = [
        {"name": name, "args": None}
        for name, value in inspect.getmembers(target, callable)
        if not name.startswith("_") and not inspect.isclass(value)
        and getattr(value, "__module__", module.__name__) == module.__name__
    ][:20]

for tool in tools:
    function = getattr(target, tool["name"], None) or getattr(module, tool["name"], None)
    if function is None:
        print("detonation: no function", tool["name"], flush=True)
        continue
    call(tool["name"], function, tool["args"])
`;
