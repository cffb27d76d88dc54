/**
 * Bumped when the certification rules change, so every version is judged again under the new
 * policy (PolicyUpgrade in libs/certifier). 1: C1-C13. 2: C14, the publisher signature.
 * 3: the parsed certifier (C11 from syntax trees, C12 on every text, C13 live tools in the
 * sandbox, C15 launch specs, C9 as evidence only) and the level rule of docs/security.md.
 * 4: code wherever it sits (documents, notebooks, build and configuration files, a file judged by
 * the interpreter that runs it), sinks from the whole Python standard library and Node core,
 * persistence, C12 in sixteen languages and encodings, and C16, the detonation.
 * 5: injection a tool's input reaches (SQL text, paths under a fixed folder), busy loops, and
 * anonymous endpoints in code or configuration failed rather than reviewed.
 * 6: PyPI servers installed from a lock of hashed wheels and probed (they can reach standard),
 * remote servers' tools listed and pinned, tools kept when prompts or resources cannot be listed,
 * and a Kazma skill in which nothing runs no longer held back as unsigned.
 */
export const CERTIFICATION_POLICY_VERSION = 6;
