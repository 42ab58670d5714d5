import { html } from './html.ts';
import { PAGE_STYLE } from './page-style.ts';

/**
 * The page shown when an operator page is opened without the token. The form posts the token
 * (not in the URL); GET /login?token=... works too, for a link, and redirects at once.
 */
export function signInPage(next: string, problem?: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>ledgersync · sign in</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main class="narrow">
<h1>ledgersync</h1>
<p>This page needs the operator token (<code>OPERATOR_TOKEN</code>).</p>
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="next" value="${next}">
<label>Operator token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`.value;
}
