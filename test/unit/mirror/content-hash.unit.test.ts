import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../../../src/sync/mirror/content-hash.ts';

describe('contentHash', () => {
  it('does not depend on key order', () => {
    expect(contentHash({ name: 'A', code: '1' })).toBe(contentHash({ code: '1', name: 'A' }));
  });

  it('changes with the content', () => {
    expect(contentHash({ name: 'A' })).not.toBe(contentHash({ name: 'B' }));
  });

  it('drops undefined keys and keeps array order', () => {
    expect(canonicalJson({ b: [2, 1], a: undefined })).toBe('{"b":[2,1]}');
  });
});
