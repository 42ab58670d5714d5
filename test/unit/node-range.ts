/**
 * Whether a node version satisfies an npm `engines` range: the subset the lock file's packages use
 * (`>=`, `>`, `<`, `<=`, `^`, `~`, bare or `x` versions, `*`, `||`). Written here because semver
 * is not one of this repository's own dependencies.
 */
type Version = [number, number, number];

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** `20.19` → the parts given ([20, 19]); `10.x` and `*` stop at the wildcard. */
function parts(text: string): number[] {
  const given: number[] = [];
  for (const part of text.replace(/^v/, '').split('.')) {
    if (!/^\d+$/.test(part)) break;
    given.push(Number(part));
  }
  return given;
}

const floor = (given: number[]): Version => [given[0] ?? 0, given[1] ?? 0, given[2] ?? 0];

/** The first version after every version the given parts name: [20] → 21.0.0, [20, 19] → 20.20.0. */
function ceiling(given: number[]): Version {
  const next = floor(given.slice(0, -1));
  next[given.length - 1] = given[given.length - 1]! + 1;
  return next;
}

function comparatorAdmits(comparator: string, version: Version): boolean {
  const [, op = '', text = ''] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator)!;
  const given = parts(text);
  if (given.length === 0) return true; // `*`, `x`
  const full = given.length === 3;
  const from = compare(version, floor(given));
  const below = (limit: Version) => compare(version, limit) < 0;
  switch (op) {
    case '>=':
      return from >= 0;
    case '>':
      return full ? from > 0 : !below(ceiling(given));
    case '<':
      return from < 0;
    case '<=':
      return full ? from <= 0 : below(ceiling(given));
    case '^':
      return from >= 0 && below(ceiling(given.slice(0, 1)));
    case '~':
      return from >= 0 && below(ceiling(given.slice(0, Math.min(2, given.length))));
    default:
      return full ? from === 0 : from >= 0 && below(ceiling(given));
  }
}

export function nodeRangeAdmits(range: string, versionText: string): boolean {
  const version = floor(parts(versionText));
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => comparatorAdmits(comparator, version)),
  );
}
