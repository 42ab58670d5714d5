import { SafeHtml } from './html.ts';

/** The pages' only style: inline (no build step, no asset route), allowed by their CSP. */
export const PAGE_STYLE = new SafeHtml(`
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
main { max-width: 1180px; margin: 0 auto; padding: 16px 24px 48px; }
main.narrow { max-width: 420px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 16px; margin: 28px 0 8px; }
header p, .muted { color: #5b6475; margin: 0; }
a { color: #2450b2; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid #dde1e8; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #eceff3; vertical-align: top; }
th { background: #eef1f5; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.message { white-space: pre-wrap; word-break: break-word; }
.attention { color: #a4262c; font-weight: 600; }
.problem { color: #a4262c; }
.ok { color: #1e7b34; }
code { font: 12px ui-monospace, monospace; background: #eef1f5; padding: 1px 4px; border-radius: 3px; }
ul { margin: 4px 0; padding-left: 20px; }
form label { display: block; margin: 12px 0; }
form input[type=password] { display: block; width: 100%; padding: 6px; margin-top: 4px; }
nav a { margin-right: 12px; }
.banner { margin: 16px 0 0; padding: 10px 14px; border-radius: 4px; border: 1px solid; }
.banner-ok { background: #e6f4ea; border-color: #a8d5b5; }
.banner-attention { background: #fff4e0; border-color: #f0c987; }
.banner-problem { background: #fbe9ea; border-color: #e8a9ad; }
.banner .headline { margin: 0; font-size: 15px; }
.banner-ok strong { color: #1e7b34; }
.banner-attention strong { color: #8a5300; }
.banner-problem strong { color: #a4262c; }
.banner ul { margin: 6px 0 0; }
.banner ul.workers { color: #5b6475; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
.charts figure { margin: 0; padding: 8px; background: #fff; border: 1px solid #dde1e8; }
.charts figcaption { font-size: 12px; color: #5b6475; }
time { font-variant-numeric: tabular-nums; }
`);
