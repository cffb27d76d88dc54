import { escapeHtml, externalLink, html, queryString, raw, safeHttpUrl, seg } from './html';

// An alias: prettier reformats templates tagged `html`, and these assert exact output.
const h = html;

describe('html', () => {
  it('escapes every interpolated value by default', () => {
    const evil = '<script>alert(1)</script>';
    expect(html`<p>${evil}</p>`.value).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html`<p>${'<img src=x onerror=alert(1)>'}</p>`.value).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
  });

  it('escapes quotes, so a value cannot leave its attribute', () => {
    const out = h`<input value="${'" onfocus="alert(1)'}" title='${"' x='y"}'>`.value;
    expect(out).toBe('<input value="&quot; onfocus=&quot;alert(1)" title=\'&#39; x=&#39;y\'>');
    expect(out).not.toContain('" onfocus="');
  });

  it('escapes ampersands once, and backticks', () => {
    expect(h`${'Tom & Jerry &amp; co `x`'}`.value).toBe('Tom &amp; Jerry &amp;amp; co &#96;x&#96;');
    expect(escapeHtml('&&')).toBe('&amp;&amp;');
  });

  it('writes raw() fragments and nested html verbatim, joins arrays, drops null, undefined and false', () => {
    const inner = h`<b>${'<i>'}</b>`;
    expect(h`${raw('<hr>')}${inner}`.value).toBe('<hr><b>&lt;i&gt;</b>');
    expect(h`<ul>${['<a>', 'b'].map((x) => h`<li>${x}</li>`)}</ul>`.value).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li></ul>',
    );
    expect(h`${null}${undefined}${false}${0}`.value).toBe('0');
  });

  it('shows hidden characters instead of letting them act: RLO, escape sequences, zero-width', () => {
    const out = h`<p>${'report\u202Efdp.exe \x1b[2J\x1b]0;owned\x07 a\u200Bb'}</p>`.value;
    expect(out).toBe('<p>report\\u{202E}fdp.exe \\u{001B}[2J\\u{001B}]0;owned\\u{0007} a\\u{200B}b</p>');
    for (const raw of ['\u202E', '\u200B', '\x1b', '\x07']) expect(out).not.toContain(raw);
    expect(h`<p>${'Café ❤️\nnext line'}</p>`.value).toBe('<p>Café ❤️\nnext line</p>');
  });

  it('does not trust a string that merely looks like markup', () => {
    const looksSafe = { value: '<script>' } as unknown as string;
    expect(html`${looksSafe}`.value).not.toContain('<script>');
  });
});

describe('publisher-supplied URLs', () => {
  it('keeps http and https URLs only', () => {
    expect(safeHttpUrl('https://example.com/a?b=1&c=2')).toBe('https://example.com/a?b=1&c=2');
    expect(safeHttpUrl('http://example.com')).toBe('http://example.com/');
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      '/relative',
      'ftp://example.com',
      '',
      42,
      null,
    ]) {
      expect(safeHttpUrl(bad)).toBeNull();
    }
  });

  it('links http(s) URLs with escaped attributes and shows anything else as text', () => {
    expect(externalLink('https://example.com/?a=1&b="2"').value).toBe(
      '<a href="https://example.com/?a=1&amp;b=%222%22" rel="nofollow noopener noreferrer">https://example.com/?a=1&amp;b=%222%22</a>',
    );
    const js = externalLink('javascript:alert(1)').value;
    expect(js).not.toContain('href');
    expect(js).toBe('<span>javascript:alert(1)</span>');
    expect(externalLink('<script>x</script>').value).toBe('<span>&lt;script&gt;x&lt;/script&gt;</span>');
  });

  it('encodes path segments and query strings', () => {
    expect(seg('a/b?c')).toBe('a%2Fb%3Fc');
    expect(queryString({ q: 'a&b', page: 2, empty: '', none: undefined })).toBe('?q=a%26b&page=2');
    expect(queryString({})).toBe('');
  });
});
