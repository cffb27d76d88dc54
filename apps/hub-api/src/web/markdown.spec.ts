import { MAX_MARKDOWN_CHARS, renderHint, renderMarkdown } from './markdown';

const md = (source: string) => renderMarkdown(source).html.value;

describe('renderMarkdown', () => {
  it('renders Markdown, with the headings under the page own h1 and h2', () => {
    expect(md('# Title\n\n## Usage\n\n- **one**\n- `two`')).toBe(
      '<h3>Title</h3>\n<h4>Usage</h4>\n<ul>\n<li><strong>one</strong></li>\n<li><code>two</code></li>\n</ul>\n',
    );
    expect(md('###### deep')).toBe('<h6>deep</h6>\n');
  });

  it('writes raw HTML as text', () => {
    const out = md('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> <b onclick="x()">b</b>');
    expect(out).not.toMatch(/<script|<img|<b /);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;b onclick=&quot;x()&quot;&gt;');
  });

  it('links http, https and mailto only, each nofollow; every other scheme stays text', () => {
    expect(md('[a](https://example.com/x?y=1&z=2)')).toBe(
      '<p><a href="https://example.com/x?y=1&amp;z=2" rel="nofollow noopener noreferrer">a</a></p>\n',
    );
    expect(md('[mail](mailto:me@example.com)')).toContain('href="mailto:me@example.com"');
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      '/relative',
      '#anchor',
    ]) {
      const out = md(`[x](${bad}) <${bad}>`);
      expect(out).not.toContain('href');
    }
    expect(md('[x](java\tscript:alert(1))')).not.toContain('href');
  });

  it('loads no image: its alt text is shown, linked to where it is', () => {
    const out = md('![the logo](https://cdn.example/logo.png "title")');
    expect(out).not.toContain('<img');
    expect(out).toBe(
      '<p><a class="img-link" href="https://cdn.example/logo.png" rel="nofollow noopener noreferrer">[image: the logo]</a></p>\n',
    );
    expect(md('![x](data:image/png;base64,AAAA)')).not.toMatch(/<img|href/);
    expect(md('![<b>"q"</b>](https://e.example/"onerror=x.png)')).not.toMatch(/<b>|"onerror/);
  });

  it('spells out hidden characters, and cuts a document that is too long', () => {
    expect(md('a\u202Eb')).toBe('<p>a\\u{202E}b</p>\n');
    const long = renderMarkdown('x'.repeat(MAX_MARKDOWN_CHARS + 10));
    expect(long.truncated).toBe(true);
    expect(long.html.value.length).toBeLessThan(MAX_MARKDOWN_CHARS + 20);
    expect(renderMarkdown('short').truncated).toBe(false);
  });
});

describe('renderHint', () => {
  it('renders inline code only, and names this hub CLI instead of Kazma one', () => {
    expect(renderHint('Sign it again with `kazma hub sign`.').value).toBe(
      'Sign it again with <code>skillhub sign</code>.',
    );
    expect(renderHint('Pin it: `requests==2.32.3` *now* [x](https://e.example) <b>').value).toBe(
      'Pin it: <code>requests==2.32.3</code> *now* [x](https://e.example) &lt;b&gt;',
    );
  });
});
