/**
 * The pages in a real browser (Debian's Chromium, driven by playwright-core, JavaScript
 * on and off): search, open a skill, read its report, see the badge image load. Every page,
 * at 1280 and 390 px wide, is checked by axe-core (no serious or critical violation) and
 * screenshotted under test-artifacts/screenshots/ (git-ignored). A publisher's `<script>` and
 * `<img onerror>` render as text: no dialog ever opens.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { stringify } from 'yaml';
import { writeBundle } from '@skillhub/bundle';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { kazmaChecksum } from '@skillhub/signing';
import { uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '..', 'test-artifacts', 'screenshots');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [1280, 390] as const;
const MCP_PACKAGE = '@acme/weather-mcp';

const README = [
  '# Weather',
  '',
  'Ask for the weather in any city. It calls [the forecast API](https://example.com/forecast) and answers in',
  'degrees Celsius unless `WEATHER_UNIT` says otherwise.',
  '',
  '## Usage',
  '',
  '```python',
  'WeatherSkill().get_weather("Lyon")',
  '```',
  '',
  '| option | meaning |',
  '|---|---|',
  '| `WEATHER_UNIT` | `C` or `F` |',
].join('\n');

interface KazmaOptions {
  code?: string;
  signWith?: string;
  extra?: Record<string, unknown>;
  readme?: string;
}

function kazma(author: string, name: string, description: string, o: KazmaOptions = {}) {
  const code = o.code ?? 'import os\n\nprint("weather", os.environ.get("WEATHER_UNIT"))\n';
  return writeBundle(
    [
      {
        path: 'skill_manifest.yaml',
        content: stringify({
          name,
          version: '1.0.0',
          description,
          author,
          license: 'MIT',
          entry_point: 'main.py',
          tags: ['weather'],
          category: 'utilities',
          permissions: ['env_read'],
          homepage: 'https://example.com/weather',
          repository: 'https://github.com/acme/weather',
          checksum: kazmaChecksum(Buffer.from(o.signWith ?? code)),
          ...o.extra,
        }),
      },
      { path: 'main.py', content: code },
      ...(o.readme ? [{ path: 'README.md', content: o.readme }] : []),
    ],
    { rootFolder: name },
  );
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

describe('web pages in Chromium', () => {
  let hub: TestHub;
  let registries: FakeRegistries;
  let browser: Browser;
  const ns = uniqueName('browser');
  const sunny = uniqueName('sunny');
  const broken = uniqueName('broken');
  const evil = uniqueName('evil');
  const revoked = uniqueName('revoked');
  const served = uniqueName('served');
  const dialogs: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    registries = await FakeRegistries.start();
    hub = await startTestHub({
      worker: true,
      env: {
        PUBLISH_RATE_LIMIT_PER_MINUTE: '1000',
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
        // The MCP server skill needs its package pinned, not started: the sandboxed probe is certification's test.
        LIVE_PROBE: 'false',
      },
    });
    const token = await hub.token(ns, ['publish', 'manage']);
    const publish = (bytes: Buffer) =>
      hub.http
        .post('/api/v1/skills')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(bytes)
        .expect(201);
    await publish(kazma(ns, sunny, 'Reports the weather for any city, with a forecast.', { readme: README }));
    await publish(
      kazma(ns, broken, 'A weather skill whose entry point was changed after signing.', {
        code: 'print(1)\n',
        signWith: 'print(0)\n',
      }),
    );
    await publish(kazma(ns, evil, 'Weather <script>alert("xss")</script> <img src=x onerror=alert("img")> & more.'));
    await publish(kazma(ns, revoked, 'A weather skill whose certification was withdrawn.'));
    await publish(
      kazma(ns, served, 'Weather through an MCP server pinned by integrity.', {
        extra: {
          mcp_servers: [{ name: 'weather', type: 'stdio', command: 'npx', args: ['-y', `${MCP_PACKAGE}@1.2.3`] }],
        },
      }),
    );
    for (const name of [sunny, broken, evil, revoked, served]) {
      for (let i = 0; i < 300; i++) {
        const { body } = await hub.http.get(`/api/v1/skills/${ns}/${name}/certification`);
        if (body.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await hub.http
      .post(`/api/v1/skills/${ns}/${revoked}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'The forecast API key it shipped with leaked.' })
      .expect((res) => expect(res.status).toBeLessThan(300));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
    await registries?.close();
  });

  /** axe's serious and critical violations of the page as it is now. */
  async function axe(page: Page): Promise<string[]> {
    await page.evaluate(AXE);
    const violations = (await page.evaluate(
      "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
    )) as AxeViolation[];
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  }

  async function open(javaScript = true, width: number = WIDTHS[0]): Promise<Page> {
    // axe is injected by the test: the pages' CSP (no script at all) would refuse it.
    const context = await browser.newContext({
      javaScriptEnabled: javaScript,
      bypassCSP: true,
      viewport: { width, height: 900 },
    });
    const page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    return page;
  }

  it('searches from the home page, opens a skill, and shows its badge and install snippet', async () => {
    const page = await open();
    await page.goto(`${hub.baseUrl}/`);
    await page.screenshot({ path: join(ARTIFACTS, 'home.png'), fullPage: true });
    await page.getByLabel('Search skills').fill(sunny);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?/);
    await page.screenshot({ path: join(ARTIFACTS, 'search.png'), fullPage: true });
    await page
      .getByRole('link', { name: `${ns}/${sunny}` })
      .first()
      .click();
    await page.waitForURL(new RegExp(`/skills/${ns}/${sunny}`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(sunny);
    expect(await page.textContent('body')).toContain(`skillhub install ${ns}/${sunny}@1.0.0`);
    // The test runs without DOM typings: read the two properties the browser reports.
    const badgeLoaded = await page.$eval('img[src*="badge.svg"]', (img) => {
      const image = img as unknown as { complete: boolean; naturalWidth: number };
      return image.complete && image.naturalWidth > 0;
    });
    expect(badgeLoaded).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'skill.png'), fullPage: true });
  });

  it("reads a failed skill's report, findings grouped by severity, with JavaScript off", async () => {
    const page = await open(false);
    await page.goto(`${hub.baseUrl}/skills/${ns}/${broken}`);
    const report = await page.textContent('section[aria-labelledby="certification"]');
    expect(report).toContain('C3');
    expect(report).toMatch(/main\.py/);
    const severities = await page.$$eval('section.findings', (sections) =>
      sections.map((s) => s.getAttribute('data-severity')),
    );
    expect(severities[0]).toBe('critical');
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
  });

  it("renders a publisher's <script> and <img onerror> as text; nothing runs", async () => {
    const page = await open();
    await page.goto(`${hub.baseUrl}/skills/${ns}/${evil}`);
    await page.goto(`${hub.baseUrl}/search?q=weather`);
    await page.goto(`${hub.baseUrl}/namespaces/${ns}`);
    await page.screenshot({ path: join(ARTIFACTS, 'namespace.png'), fullPage: true });
    await page.goto(`${hub.baseUrl}/skills/${ns}/${evil}`);
    expect(await page.textContent('main')).toContain('<script>alert("xss")</script>');
    expect(await page.$$('main script')).toHaveLength(0);
    expect(await page.$$('main img[src="x"]')).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(dialogs).toEqual([]);
  });

  const pages = () => ({
    home: '/',
    search: '/search?q=weather',
    skill: `/skills/${ns}/${sunny}`,
    report: `/skills/${ns}/${broken}`,
    revoked: `/skills/${ns}/${revoked}`,
    server: `/servers/${encodeURIComponent(MCP_PACKAGE)}`,
    namespace: `/namespaces/${ns}`,
  });

  it.each(WIDTHS)(
    'at %i px: every page passes axe (no serious or critical violation) and fits the width',
    async (width) => {
      const first = await open(true, width);
      // The pages are checked side by side, each in a tab of the same context.
      const problems = await Promise.all(
        Object.entries(pages()).map(async ([name, path]) => {
          const page = await first.context().newPage();
          const res = await page.goto(`${hub.baseUrl}${path}`);
          const found = res?.status() === 200 ? [] : [`${name}: answered ${res?.status()}`];
          await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
          found.push(...(await axe(page)).map((p) => `${name}: ${p}`));
          // Nothing wider than the screen: long digests and paths wrap, tables stack.
          const overflow = await page.evaluate(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          );
          if (overflow !== 0) found.push(`${name}: ${String(overflow)} px wider than the screen`);
          return found;
        }),
      );
      expect(problems.flat()).toEqual([]);
      await first.context().close();
    },
  );

  it.each(WIDTHS)(
    'at %i px: a revoked version shows its banner with the reason, and no install command',
    async (width) => {
      const page = await open(false, width);
      await page.goto(`${hub.baseUrl}/skills/${ns}/${revoked}`);
      const banner = page.locator('#banner-revoked');
      expect(await banner.isVisible()).toBe(true);
      expect(await banner.textContent()).toContain('The forecast API key it shipped with leaked.');
      const body = (await page.textContent('main')) ?? '';
      expect(body).not.toContain('skillhub install');
      expect(body).toContain('This version cannot be installed: its certification was revoked.');
      await page.context().close();
    },
  );

  it('stacks the report on a narrow screen: each finding one card, its labels shown', async () => {
    const page = await open(false, 390);
    await page.goto(`${hub.baseUrl}/skills/${ns}/${broken}`);
    const cell = page.locator('table.report td[data-label="How to fix"]').first();
    // The test runs without DOM typings: the one browser function it needs, typed here.
    const display = await cell.evaluate(
      (td) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(td).display,
    );
    expect(display).toBe('block');
    const box = await cell.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    // The hint's Markdown is rendered, with this hub's command.
    expect(await page.locator('table.report code', { hasText: 'skillhub sign' }).count()).toBeGreaterThan(0);
    expect(await page.textContent('main')).not.toContain('kazma hub sign');
    await page.context().close();
  });
});
