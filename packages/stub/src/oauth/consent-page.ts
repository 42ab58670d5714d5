/**
 * The HTML of the authorization endpoint (docs/platform.md F44): the consent page a test drives
 * with plain HTTP, and the 400 page that says why a request was refused.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

/** A form that posts every query parameter back with the business's decision. */
export function consentPage(params: Record<string, string>, scopes: string[]): string {
  const hidden = Object.entries(params)
    .filter(([name]) => name !== 'decision')
    .map(([name, value]) => `  <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const list = scopes.map((s) => `  <li>${escapeHtml(s)}</li>`).join('\n');
  return page(
    'Connect an app to your svc business',
    `<p>The app <strong>${escapeHtml(params.client_id ?? '')}</strong> asks for:</p>
<ul>
${list}
</ul>
<form method="post" action="/oauth/authorize">
${hidden}
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function refusalPage(reason: string): string {
  return page('This authorization request cannot be completed', `<p>${escapeHtml(reason)}</p>`);
}
