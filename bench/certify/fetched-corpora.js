// Skills read from fetched copies of public repositories (`fetch` leaves a git dir at
// /work/.mirror/<owner>+<name>/repo): exported to a temporary folder, never committed.
const { execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { basename, join, relative } = require('node:path');

/**
 * The tree of a fetched repository's HEAD under `prefix` (a path or a list of them; all of it when
 * omitted), written to a temporary folder.
 */
function exportTree(gitDir, prefix) {
  const into = mkdtempSync(join(tmpdir(), 'public-corpus-'));
  const paths = prefix === undefined ? [] : [prefix].flat();
  const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', 'HEAD', ...paths], {
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

/**
 * SwarmKit skills as SwarmKit ships them: every workspace folder (`workspace.yaml` of kind Workspace
 * with skills under `skills/`) split as the hub splits it (`split`: libs/skill-formats'
 * workspaceSkills), and each loose skill file of `looseFolders` (SwarmKit's `reference/skills`)
 * published alone. Test fixtures of invalid workspaces are left out.
 */
function swarmkitCases(root, split, { looseFolders = ['reference/skills'] } = {}) {
  const cases = [];
  const walk = (dir) => {
    const names = readdirSync(dir);
    if (names.includes('workspace.yaml') && names.includes('skills') && !/invalid|broken/.test(dir)) {
      const files = Object.entries(filesUnder(dir)).map(([path, content]) => ({ path, content }));
      const workspace = split(files);
      if (workspace?.ok) {
        for (const skill of workspace.skills) {
          const id = `${relative(root, dir)}/${skill.skillPath}`.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase();
          const skillFiles = Object.fromEntries(skill.files.map((file) => [file.path, file.content]));
          cases.push({ id, label: 'benign', format: 'swarmkit', folder: basename(dir), files: skillFiles, note: id });
        }
      } else if (workspace) console.log(`  workspace ${relative(root, dir)} refused: ${workspace.problem.message}`);
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory() && name !== 'node_modules' && name !== '.git') walk(path);
    }
  };
  walk(root);
  for (const folder of looseFolders.filter((loose) => existsSync(join(root, loose)))) {
    for (const name of readdirSync(join(root, folder)).filter((n) => /\.ya?ml$/.test(n))) {
      const id = `${folder}/${name}`.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase();
      const files = { [name]: readFileSync(join(root, folder, name)) };
      cases.push({ id, label: 'benign', format: 'swarmkit', folder: name.replace(/\.ya?ml$/, ''), files, note: id });
    }
  }
  return cases;
}

module.exports = { exportTree, skillCases, swarmkitCases };
