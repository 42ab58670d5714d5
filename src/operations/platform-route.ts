/** Static segments of the developer API are lowercase words ('accounting', 'ready-to-sync'). */
const WORD = /^[a-z][a-z_-]{0,39}$/;

/** Distinct routes one process labels; the API has a few dozen, so more means ids slipped through. */
const MAX_ROUTES = 100;

/**
 * A metric label for a platform path: object ids become ':id' ('/transactions/:id'), so the
 * series stay few. Ids are uuids or carry digits; a segment that is not a plain word counts as
 * one. Past MAX_ROUTES distinct routes, new ones are labelled 'other' (bounded cardinality
 * whatever the paths look like).
 */
export function routeLabeller(maxRoutes = MAX_ROUTES): (path: string) => string {
  const seen = new Set<string>();
  return (path) => {
    const segments = path
      .split('/')
      .filter(Boolean)
      .map((s) => (WORD.test(s) ? s : ':id'));
    const route = `/${segments.join('/')}`;
    if (seen.has(route)) return route;
    if (seen.size >= maxRoutes) return 'other';
    seen.add(route);
    return route;
  };
}
