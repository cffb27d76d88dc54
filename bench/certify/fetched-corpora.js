// Skills read from fetched copies of public repositories (`fetch` leaves a git dir at
// /work/.mirror/<owner>+<name>/repo): exported to a temporary folder, never committed.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { basename, join, relative } = require('node:path');

/** The tree of a fetched repository's HEAD under `prefix` (all of it when omitted), written to a temporary folder. */
function exportTree(gitDir, prefix) {
  const into = mkdtempSync(join(tmpdir(), 'public-corpus-'));
  const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', 'HEAD', ...(prefix ? [prefix] : [])], {
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', into], { input: tar, maxBuffer: 1 << 30 });
  return into;
}

function filesUnder(folder) {
  const files = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name !== '_expected.json') files[relative(folder, path)] = readFileSync(path);
    }
  };
  walk(folder);
  return files;
}

/**
 * Every folder holding a SKILL.md, as an Agent Skill case. `folder`: 'declared' names the bundle's
 * folder as the front matter names the skill (labelled corpora, where only the content is judged);
 * 'actual' keeps the repository's folder name, as its users publish it.
 */
function skillCases(root, label, { folder = 'declared' } = {}) {
  const cases = [];
  const walk = (dir) => {
    const names = readdirSync(dir);
    if (names.includes('SKILL.md')) {
      const files = filesUnder(dir);
      const name = /^name:\s*["']?([^"'\n]+)/m.exec(files['SKILL.md'].toString('utf8'))?.[1]?.trim();
      const id = relative(root, dir)
        .replace(/[^a-zA-Z0-9]+/g, '-')
        .toLowerCase();
      const bundleFolder = folder === 'actual' ? basename(dir) : (name ?? id);
      cases.push({
        id,
        label: label(relative(root, dir)),
        format: 'agent-skill',
        folder: bundleFolder,
        files,
        note: id,
      });
      return;
    }
    for (const name of names) if (statSync(join(dir, name)).isDirectory()) walk(join(dir, name));
  };
  walk(root);
  return cases;
}

module.exports = { exportTree, skillCases };
