import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../src/canonical-json.ts';
import { contentHash } from '../../../../src/sync/mirror/content-hash.ts';

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

describe('canonicalJson: one serialiser for every hash and key', () => {
  it('sorts keys at every depth, leaves out undefined members, writes undefined elsewhere as null', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, undefined], c: undefined } })).toBe(
      '{"a":{"d":[2,null]},"b":1}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined])).toBe(JSON.stringify([undefined]));
  });
});
