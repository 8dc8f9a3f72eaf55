/** The page's stylesheet (page.mts puts it inline; its hash is in the page's Content-Security-Policy). */
export const PAGE_STYLE = `
:root { color-scheme: light; --ink: #1d2733; --muted: #5d6b7a; --line: #dde3ea; --card: #fff; --ground: #f3f5f8;
	--ok: #1d7a46; --ok-bg: #e3f4ea; --warn: #8a5a00; --warn-bg: #fdf1d6; --bad: #b3261e; --bad-bg: #fbe4e2;
	--info: #1f5fa8; --info-bg: #e3edf9; --limit: #6a3fa0; --limit-bg: #efe7f8; --none: #404b57; --none-bg: #e6e9ed; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--ground); }
header { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: center;
	padding: 10px 20px; background: #17212b; color: #eef2f6; }
header h1 { margin: 0; font-size: 17px; font-weight: 600; }
header .where { color: #9fb0c2; font-size: 12px; }
header .actions { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-left: auto; }
header label { display: inline-flex; gap: 4px; align-items: center; color: #cfd8e2; }
#status { flex-basis: 100%; min-height: 1.4em; font-size: 13px; color: #cfe3d6; }
#status[data-kind="error"] { color: #ffb4ab; }
main { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: 16px; padding: 16px 20px 40px; }
@media (max-width: 1000px) { main { grid-template-columns: minmax(0, 1fr); } }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; min-width: 0; }
section.wide { grid-column: 1 / -1; }
section h2 { margin: 0 0 8px; font-size: 15px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
section h2 .count { font-weight: 400; color: var(--muted); font-size: 13px; }
section h3 { margin: 12px 0 6px; font-size: 13px; color: var(--muted); font-weight: 600; }
.view[data-state="unavailable"], .view[data-state="error"] { color: var(--muted); font-style: italic; }
.view[data-state="error"] { color: var(--bad); }
.empty { color: var(--muted); font-style: italic; }
button { font: inherit; padding: 4px 10px; border-radius: 5px; border: 1px solid #9db0c4; background: #fff; color: #14202b; cursor: pointer; }
button:hover { background: #eaf1f8; }
button.danger { border-color: #d9837c; color: var(--bad); }
header button { border-color: #51657a; background: #263442; color: #eef2f6; }
header button:hover { background: #32465a; }
header button.danger { border-color: #b5625b; color: #ffc9c3; }
select, input { font: inherit; padding: 3px 6px; border: 1px solid #b7c4d1; border-radius: 5px; background: #fff; color: var(--ink); }
header select { border-color: #51657a; background: #263442; color: #eef2f6; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); padding: 4px 6px; white-space: nowrap; }
td { border-bottom: 1px solid #eef1f4; padding: 4px 6px; vertical-align: top; overflow-wrap: normal; word-break: normal; }
code, .mono { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
/* A table wider than its section (a narrow window) scrolls sideways in its box: cells wrap only between words. */
.scroll { overflow-x: auto; }
.scroll.tall { max-height: 520px; overflow: auto; }
/* A path, URL or pattern is one word: whole on its line (the table scrolls if it must). */
td code { white-space: nowrap; }
/* The journal's notes (warnings) read as lines, not a word a line, when the window is narrow (a cell's own min-width is not kept). */
.notes { display: inline-block; min-width: 16em; }
code.cut { display: inline-block; max-width: 26em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: top; }
[hidden] { display: none !important; }
main[data-view]:not([data-view="all"]) section { grid-column: 1 / -1; }
#views { display: flex; flex-wrap: wrap; gap: 4px; }
#views button { padding: 2px 10px; font-size: 13px; }
#views button[aria-pressed="true"] { background: #eef2f6; color: #17212b; border-color: #eef2f6; }
.badge { display: inline-block; min-width: 34px; text-align: center; padding: 0 6px; border-radius: 10px; font-weight: 600; font-size: 12px; }
.s2 { color: var(--ok); background: var(--ok-bg); }
.s3 { color: var(--info); background: var(--info-bg); }
.s4 { color: var(--warn); background: var(--warn-bg); }
.s429 { color: var(--limit); background: var(--limit-bg); }
.s5 { color: var(--bad); background: var(--bad-bg); }
.s0 { color: var(--none); background: var(--none-bg); }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; font-size: 13px; }
.filters label { display: inline-flex; gap: 4px; align-items: center; color: var(--muted); }
meter { width: 90px; vertical-align: middle; }
.clock { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
.clock .now { font-size: 18px; font-weight: 600; }
.pill { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.pill.frozen { color: var(--info); background: var(--info-bg); }
.pill.running { color: var(--ok); background: var(--ok-bg); }
.summary { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 8px; }
.scroll thead th { position: sticky; top: 0; background: var(--card); }
.timeline td { vertical-align: middle; white-space: nowrap; }
.timeline td.type { font-weight: 600; }
.timeline td.steps { width: 100%; white-space: normal; }
.timeline .url { max-width: 260px; overflow: hidden; text-overflow: ellipsis; color: var(--muted); font-size: 11px; }
.timeline button { padding: 1px 8px; font-size: 12px; }
.nowrap { white-space: nowrap; }
ol.attempts { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
li.attempt { padding: 2px 8px; border-radius: 5px; font-size: 12px; border: 1px solid; white-space: nowrap; }
.delivered { color: var(--ok); background: var(--ok-bg); border-color: #a9dbbd; }
.retry_scheduled { color: var(--warn); background: var(--warn-bg); border-color: #ecd196; }
.failed { color: var(--bad); background: var(--bad-bg); border-color: #efb1ab; }
.not_sent { color: var(--none); background: var(--none-bg); border-color: #c3cad2; }
li.gap { color: var(--muted); font-size: 12px; }
`;
