/** The page frame every web page shares: one inline stylesheet, landmarks, a skip link, the search form. */
import { html, raw, type SafeHtml } from './html';

/** Colours meet WCAG AA (4.5:1 or better) on their backgrounds; focus is always visible. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff}
a{color:#0a4fb5}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid #b34700;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem;z-index:1}
.skip:focus{left:.5rem}
header,main,footer{max-width:64rem;margin:0 auto;padding:1rem}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;border-bottom:1px solid #8c959f}
header .brand{font-weight:700;font-size:1.25rem;color:#1b1f24;text-decoration:none}
form.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
form.search label{display:flex;flex-direction:column;font-size:.9rem}
input,select,button{font:inherit;padding:.35rem .5rem;border:1px solid #57606a;border-radius:4px;background:#fff;color:#1b1f24}
button{background:#0a4fb5;color:#fff;border-color:#0a4fb5;cursor:pointer}
footer{border-top:1px solid #8c959f;color:#424a53;font-size:.9rem}
ul.skills{list-style:none;padding:0}
ul.skills li{border-bottom:1px solid #d0d7de;padding:.75rem 0}
.meta{color:#424a53;font-size:.9rem}
.pill{display:inline-block;border:1px solid #57606a;border-radius:1rem;padding:0 .5rem;font-size:.85rem;color:#1b1f24}
.ok{background:#dafbe1;border-color:#116329;color:#0f5323}
.bad{background:#ffebe9;border-color:#a40e26;color:#82071e}
h1 code{font-size:.75em;overflow-wrap:anywhere}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.75rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #d0d7de;vertical-align:top;overflow-wrap:break-word}
code.digest,code.evidence,code.where{word-break:break-all}
td.num{white-space:nowrap}
table.report{table-layout:fixed}
table.report td{overflow-wrap:anywhere}
th.rule{width:14rem}
.desc{white-space:pre-wrap}
section{margin:1.5rem 0}
.sev-critical,.sev-high{color:#82071e}
.sev-medium{color:#7a4100}
nav.pages{display:flex;gap:1rem}
.banner{border:1px solid #57606a;border-left-width:.4rem;border-radius:4px;padding:.25rem .75rem;margin:1rem 0}
.banner.bad{background:#ffebe9;border-color:#a40e26;color:#1b1f24}
.banner.warn{background:#fff8c5;border-color:#7a4100;color:#1b1f24}
ul.plain,ul.links,ul.requirements{list-style:none;padding:0;margin:0}
ul.links{display:flex;flex-wrap:wrap;gap:0 1.5rem}
ul.requirements li.unmet{color:#82071e}
ul.categories{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem}
.readme{border:1px solid #d0d7de;border-radius:4px;padding:0 1rem;overflow-wrap:break-word}
.readme img,.readme table{max-width:100%}
.readme blockquote{margin:0;padding-left:1rem;border-left:.25rem solid #d0d7de;color:#424a53}
@media (min-width:48rem){.columns{display:grid;grid-template-columns:1fr 1fr;gap:2rem}}
@media (max-width:40rem){
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.stack,table.stack tbody{display:block;width:100%}
table.stack tr{display:block;border-bottom:1px solid #8c959f;padding:.5rem 0}
table.stack td{display:block;border:0;padding:.15rem 0;overflow-wrap:anywhere}
table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
}
`
  .replace(/\n/g, '')
  .trim();
// The stylesheet is ours (no interpolated data): written verbatim.
const STYLE_HTML = raw(STYLE);

export interface PageOptions {
  title: string;
  /** The search box's current text. */
  q?: string;
  /** The page has a search form of its own (the search page): the header shows none, so there is one box. */
  ownSearch?: boolean;
}

export function layout(options: PageOptions, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Skill Hub</title>
        <style>
          ${STYLE_HTML}
        </style>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <a class="brand" href="/">Skill Hub</a>
          ${
            options.ownSearch
              ? ''
              : html`<form class="search" role="search" method="get" action="/search">
                  <label for="site-search"
                    >Search skills<input
                      id="site-search"
                      type="search"
                      name="q"
                      value="${options.q ?? ''}"
                      maxlength="200"
                  /></label>
                  <button type="submit">Search</button>
                </form>`
          }
        </header>
        <main id="main" tabindex="-1">${body}</main>
        <footer>
          <p>
            Skill Hub: a registry of agent skills with explained, signed certification.
            <a href="/docs">API documentation</a>.
          </p>
        </footer>
      </body>
    </html> `;
}
