/**
 * The pages' only stylesheet, inlined so a page needs nothing else (no external assets).
 * Colours meet WCAG AA contrast on white and on the form panel: body text 15.7:1 or more, links
 * and the button 7.2:1, muted text 8:1, the focus ring 4.4:1 and control borders 4.1:1 (3:1 is
 * asked for non-text). Every interactive element shows a visible keyboard focus ring.
 */
export const PAGE_STYLES = `
:root{color-scheme:light;--ink:#1b1b1f;--muted:#4a4a55;--line:#d0d0d8;--bg:#fff;--panel:#f4f5f8;--link:#0b4bb3;--focus:#b35900}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--link)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem}
.skip-link:focus{left:.5rem}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;justify-content:space-between;border-bottom:1px solid var(--line);padding-top:.75rem;padding-bottom:.5rem}
header .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--ink)}
h1{font-size:1.6rem;line-height:1.25;margin:1rem 0 .5rem}
h2{font-size:1.1rem;line-height:1.3;margin:0 0 .25rem}
form.search{display:flex;flex-wrap:wrap;gap:.75rem 1rem;align-items:flex-end;background:var(--panel);border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:.5rem 0 1rem}
form.search label{display:flex;flex-direction:column;font-size:.9rem;font-weight:600;gap:.2rem}
form.search .q{flex:1 1 18rem}
input,select,button{font:inherit;color:var(--ink);background:var(--bg);border:1px solid #767680;border-radius:.3rem;padding:.35rem .5rem;min-height:2.25rem}
button{background:var(--link);color:#fff;border-color:var(--link);font-weight:600;padding:.35rem 1rem;cursor:pointer}
.summary{color:var(--muted);margin:.25rem 0 1rem}
.results{list-style:none;margin:0;padding:0}
.results>li{border-top:1px solid var(--line);padding:.9rem 0}
.meta{color:var(--muted);font-size:.92rem;margin:.1rem 0}
.abstract{margin:.35rem 0}
.links{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.25rem 0 0;padding:0;list-style:none;font-size:.92rem}
nav.pager ul{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0;margin:1rem 0}
nav.pager a,nav.pager span{display:inline-block;padding:.3rem .75rem;border:1px solid var(--line);border-radius:.3rem}
nav.pager span[aria-disabled]{color:var(--muted);background:var(--panel)}
nav.pager .current{border-color:transparent}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:1rem 0}
dl.fields dt{font-weight:600}
dl.fields dd{margin:0;overflow-wrap:anywhere}
.full-abstract{white-space:pre-line;max-width:48rem}
footer{border-top:1px solid var(--line);margin-top:2rem;padding-top:.75rem;padding-bottom:1.5rem;color:var(--muted);font-size:.9rem}
code{font-size:.9em;overflow-wrap:anywhere}
`.trim();
