import { describe, expect, it } from 'vitest';
import { routeLabeller } from '../../../src/operations/platform-route.ts';

describe('platform route labels', () => {
  it('object ids become :id; static words stay', () => {
    const routeOf = routeLabeller();
    expect(routeOf('/transactions/54a448fa-0001-4000-8000-000000000000')).toBe('/transactions/:id');
    expect(routeOf('/webhooks/wh_1/verify')).toBe('/webhooks/:id/verify');
    expect(routeOf('/accounting/ready-to-sync')).toBe('/accounting/ready-to-sync');
    expect(routeOf('/vendors/ACME%20Ltd')).toBe('/vendors/:id');
    expect(routeOf('/token')).toBe('/token');
    expect(routeOf('/')).toBe('/');
  });

  it('past the limit of distinct routes, new ones are "other"', () => {
    const routeOf = routeLabeller(2);
    expect(routeOf('/a')).toBe('/a');
    expect(routeOf('/b')).toBe('/b');
    expect(routeOf('/c')).toBe('other');
    expect(routeOf('/a')).toBe('/a');
  });
});
