/**
 * The pages in a real browser (Debian's Chromium, driven by playwright-core, JavaScript
 * on and off): search, open a skill, read its report, see the badge image load. A
 * screenshot of each page is saved under test-artifacts/. A publisher's `<script>` and
 * `<img onerror>` render as text: no dialog ever opens.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { stringify } from 'yaml';
import { writeBundle } from '@skillhub/bundle';
import { kazmaChecksum } from '@skillhub/signing';
import { uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '..', 'test-artifacts', 'screenshots');

function kazma(author: string, name: string, description: string, code = 'print("weather")\n', signWith?: string) {
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
          checksum: kazmaChecksum(Buffer.from(signWith ?? code)),
        }),
      },
      { path: 'main.py', content: code },
    ],
    { rootFolder: name },
  );
}

describe('web pages in Chromium', () => {
  let hub: TestHub;
  let browser: Browser;
  const ns = uniqueName('browser');
  const sunny = uniqueName('sunny');
  const broken = uniqueName('broken');
  const evil = uniqueName('evil');
  const dialogs: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    hub = await startTestHub({ worker: true, env: { PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' } });
    const token = await hub.token(ns);
    const publish = (bytes: Buffer) =>
      hub.http
        .post('/api/v1/skills')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(bytes)
        .expect(201);
    await publish(kazma(ns, sunny, 'Reports the weather for any city, with a forecast.'));
    await publish(
      kazma(ns, broken, 'A weather skill whose entry point was changed after signing.', 'print(1)\n', 'print(0)\n'),
    );
    await publish(kazma(ns, evil, 'Weather <script>alert("xss")</script> <img src=x onerror=alert("img")> & more.'));
    for (const name of [sunny, broken, evil]) {
      for (let i = 0; i < 300; i++) {
        const { body } = await hub.http.get(`/api/v1/skills/${ns}/${name}/certification`);
        if (body.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
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
    await hub.close();
  });

  async function open(javaScript = true): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled: javaScript });
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
});
