import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from '../../../../src/server/operator/html.ts';

describe('html', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('escapes every interpolated value; nested html and arrays of it stay markup', () => {
    const rows = ['<b>', 'ok'].map((t) => html`<li>${t}</li>`);
    const out = html`<ul title="${'"quoted"'}">${rows}</ul>${null}${undefined}${false}${0}`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.value).toBe('<ul title="&quot;quoted&quot;"><li>&lt;b&gt;</li><li>ok</li></ul>0');
  });

  it('a plain string that looks like markup is still escaped', () => {
    expect(html`${'<script>alert(1)</script>'}`.value).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
