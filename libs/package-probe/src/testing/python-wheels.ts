/**
 * Real wheels for a local PyPI (PyPI itself is not reachable from these machines): built by this
 * machine's Python (zipfile, with a RECORD as pip checks it) from the files a test gives, and the
 * project fixture the fake registry answers for them: the JSON API for C8, the simple index and the
 * files for pip. `STDLIB_MCP_SERVER` is an MCP server (stdio, newline-delimited JSON-RPC) that needs
 * nothing outside Python's standard library.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { PypiFile, PypiProject } from './registry-fixtures';

export interface TestWheel {
  /** PEP 503 normalized. */
  name: string;
  version: string;
  filename: string;
  /** The path the fake registry serves it at. */
  path: string;
  bytes: Buffer;
  sha256: string;
}

export interface WheelSource {
  name: string;
  version: string;
  /** Path in the wheel → text. */
  files: Record<string, string>;
  /** Command → `module:function`. */
  consoleScripts?: Record<string, string>;
}

const BUILD = String.raw`
import base64, hashlib, io, json, sys, zipfile
spec = json.load(sys.stdin)
dist = spec["dist"]
info = dist + ".dist-info/"
files = dict(spec["files"])
files[info + "METADATA"] = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (spec["name"], spec["version"])
files[info + "WHEEL"] = "Wheel-Version: 1.0\nGenerator: skillhub-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
if spec["scripts"]:
    files[info + "entry_points.txt"] = "[console_scripts]\n" + "".join("%s = %s\n" % kv for kv in spec["scripts"].items())
def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
out = io.BytesIO()
with zipfile.ZipFile(out, "w") as wheel:
    lines = []
    for path in sorted(files):
        data = files[path].encode()
        info_ = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
        wheel.writestr(info_, data)
        lines.append("%s,%s,%d\n" % (path, digest(data), len(data)))
    lines.append(info + "RECORD,,\n")
    wheel.writestr(zipfile.ZipInfo(info + "RECORD", date_time=(2026, 1, 1, 0, 0, 0)), "".join(lines))
sys.stdout.buffer.write(out.getvalue())
`;

export function buildWheel(source: WheelSource): TestWheel {
  const name = source.name.toLowerCase().replace(/[-_.]+/g, '-');
  const dist = `${name.replace(/-/g, '_')}-${source.version}`;
  const bytes = execFileSync('python3', ['-c', BUILD], {
    input: JSON.stringify({
      dist,
      name: source.name,
      version: source.version,
      files: source.files,
      scripts: source.consoleScripts ?? {},
    }),
  });
  const filename = `${dist}-py3-none-any.whl`;
  return {
    name,
    version: source.version,
    filename,
    path: `/files/${filename}`,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** The fake registry's project for these wheels (one release each, of one project), the last one latest. */
export function pypiProjectOf(wheels: readonly TestWheel[]): PypiProject {
  const [first] = wheels;
  if (!first || wheels.some((wheel) => wheel.name !== first.name)) throw new Error('wheels of one project');
  const file = (wheel: TestWheel): PypiFile => ({
    filename: wheel.filename,
    packagetype: 'bdist_wheel',
    python_version: 'py3',
    digests: { blake2b_256: '0'.repeat(64), md5: '0'.repeat(32), sha256: wheel.sha256 },
    md5_digest: '0'.repeat(32),
    size: wheel.bytes.length,
    upload_time_iso_8601: '2026-01-01T00:00:00.000000Z',
    url: wheel.path,
    requires_python: '>=3.8',
    yanked: false,
    yanked_reason: null,
  });
  return {
    name: first.name,
    latest: wheels[wheels.length - 1]!.version,
    lastSerial: 1,
    releases: Object.fromEntries(
      wheels.map((wheel) => [
        wheel.version,
        {
          info: {
            name: wheel.name,
            version: wheel.version,
            summary: 'A test MCP server.',
            description: '',
            description_content_type: 'text/markdown',
            classifiers: [],
            home_page: null,
            project_urls: null,
            requires_python: '>=3.8',
            yanked: false,
            yanked_reason: null,
          },
          urls: [file(wheel)],
        },
      ]),
    ),
  };
}

/** An MCP server on stdio in the standard library only: `tools/list` answers `TOOLS`, `tools/call` greets. */
export const STDLIB_MCP_SERVER = String.raw`
import json, sys

TOOLS = [{"name": "hello", "description": "Says hello to someone.",
          "inputSchema": {"type": "object", "properties": {"who": {"type": "string"}}}}]

def answer(message):
    method = message.get("method")
    if method == "initialize":
        return {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "stdlib-mcp", "version": "1.0.0"}}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        who = (message["params"].get("arguments") or {}).get("who", "world")
        return {"content": [{"type": "text", "text": "hello " + str(who)}]}
    if method == "ping":
        return {}
    return None

def main():
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        result = answer(message)
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        if result is None:
            reply["error"] = {"code": -32601, "message": "no method " + str(message.get("method"))}
        else:
            reply["result"] = result
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0
`;
