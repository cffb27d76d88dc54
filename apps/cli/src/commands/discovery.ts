/** Finding skills: search, certified, info, stats, badge. */
import type { Command } from 'commander';
import type { SkillListItem } from '@skillhub/hub-client';
import { DEFAULT_PAGE_SIZE, UNPAGED_LIST_CAP } from '@skillhub/search';
import { csv, parseRef, type CliContext } from '../cli-context';
import { orSuggest } from '../did-you-mean';
import { fields, lines, table, tty } from '../format';

/** A description cut to a column, by characters (never inside a surrogate pair). */
const cut = (text: string, max: number): string => {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
};

export function discoveryCommands(program: Command, ctx: CliContext): void {
  const { paint, print, client, statusColour } = ctx;

  const list = (cmd: Command, value: { items: SkillListItem[]; total: number }) =>
    print(cmd, value, () =>
      lines(
        table(
          ['SKILL', 'VERSION', 'CERTIFIED', 'DOWNLOADS', 'DESCRIPTION'],
          value.items.map((s) => [
            `${s.author}/${s.name}`,
            s.version,
            s.certified ? paint.green(s.certification_level) : 'no',
            String(s.downloads),
            cut(s.description, 60),
          ]),
        ),
        tty`${value.total} skill(s)`,
      ),
    );

  program
    .command('search [text]')
    .description('search skills')
    .option('--capabilities <list>', 'comma list; every one must be declared')
    .option('--tags <list>', 'comma list; any one may match')
    .option('--author <namespace>', 'only this namespace')
    .option('--certified', 'only certified skills')
    .option('--limit <n>', 'at most this many', String(DEFAULT_PAGE_SIZE))
    .action(async (text: string | undefined, o, cmd: Command) => {
      const result = await client(cmd).listSkills({
        q: text,
        capabilities: csv(o.capabilities),
        tags: csv(o.tags),
        author: o.author,
        certified: o.certified ? true : undefined,
        per_page: Number(o.limit),
      });
      list(cmd, result);
    });

  program
    .command('certified')
    .description(`list every certified skill (the hub answers up to ${UNPAGED_LIST_CAP} at once)`)
    .action(async (_o, cmd: Command) => list(cmd, await client(cmd).listSkills({ certified: true })));

  program
    .command('info <ref>')
    .description('a skill (author/name) or one version (author/name@version)')
    .action(async (ref: string, _o, cmd: Command) => {
      const { author, name, version } = parseRef(ref);
      const hub = client(cmd);
      if (!version) {
        const skill = await orSuggest(hub, author, name, () => hub.getSkill(author, name));
        return print(cmd, skill, () =>
          lines(
            fields([
              ['skill', skill.id],
              ['latest', skill.latest ? skill.latest.version : '(none)'],
              ['description', skill.latest?.description ?? ''],
              ['certification', skill.latest ? statusColour(skill.latest.certification.status) : '-'],
            ]),
            '',
            table(
              ['VERSION', 'STATUS', 'CERTIFICATION', 'PUBLISHED'],
              skill.versions.map((x) => [
                x.version,
                statusColour(x.status),
                statusColour(x.certification.status),
                x.published_at,
              ]),
            ),
          ),
        );
      }
      const v = await orSuggest(hub, author, name, () => hub.getVersion(author, name, version));
      print(cmd, v, () =>
        fields([
          ['id', v.id],
          ['description', v.description],
          ['format', v.format],
          ['status', v.status_message ? tty`${statusColour(v.status)} (${v.status_message})` : statusColour(v.status)],
          ['certification', tty`${statusColour(v.certification.status)} (${v.certification.level})`],
          ['capabilities', v.capabilities.join(', ') || '-'],
          ['bundle', `${v.bundle_sha256} (${v.bundle_size} bytes)`],
          ['published', v.published_at],
        ]),
      );
    });

  program
    .command('stats')
    .description('hub totals')
    .action(async (_o, cmd: Command) => {
      const stats = await client(cmd).stats();
      print(cmd, stats, () =>
        lines(
          fields([
            ['skills', String(stats.total_skills)],
            ['certified', String(stats.certified_count)],
          ]),
          '',
          table(
            ['CATEGORY', 'SKILLS'],
            Object.entries(stats.by_category).map(([k, n]) => [k, String(n)]),
          ),
        ),
      );
    });

  program
    .command('badge <ref>')
    .description('certification status and the badge to embed in a README')
    .action(async (ref: string, _o, cmd: Command) => {
      const { author, name, version } = parseRef(ref);
      const hub = client(cmd);
      const cert = await orSuggest(hub, author, name, () => hub.certification(author, name, version));
      const url = hub.badgeUrl(author, name, { version });
      const page = `${hub.baseUrl}/api/v1/skills/${encodeURIComponent(author)}/${encodeURIComponent(name)}`;
      const markdown = `[![Skill Hub: ${author}/${name}](${url})](${page})`;
      const html = `<a href="${page}"><img src="${url}" alt="Skill Hub: ${author}/${name}"></a>`;
      print(cmd, { status: cert.status, level: cert.level, badge_url: url, markdown, html }, () =>
        fields([
          ['status', tty`${statusColour(cert.status)} (${cert.level})`],
          ['markdown', markdown],
          ['html', html],
        ]),
      );
    });
}
