/**
 * Compares two JSON values by shape, not by value: does `actual` carry every key `example` has,
 * with a value of the same JSON type? Used to check the stub's answers against live-shaped
 * examples written from the published platform (test/fixtures/platform), independently of any
 * zod schema of this project. A null on either side matches any type (one example cannot say
 * whether a field is nullable); an empty array on either side matches any array. `optional` names
 * the paths (array indexes written `[]`, e.g. `$.data[].memo`) the stub may leave out: fields the
 * published copies make optional and never null (docs/platform.md F36).
 */
export function shapeMismatches(
  example: unknown,
  actual: unknown,
  optional: ReadonlySet<string> = new Set(),
  path = '$',
): string[] {
  if (example === null || actual === null) return [];
  const expected = kindOf(example);
  const got = kindOf(actual);
  if (expected !== got) return [`${path}: published ${expected}, stub ${got}`];
  if (Array.isArray(example) && Array.isArray(actual)) {
    if (example.length === 0 || actual.length === 0) return [];
    const merged = mergeExamples(example);
    return actual
      .flatMap((item, i) => shapeMismatches(merged, item, optional, `${path}[${i}]`))
      .filter(unique);
  }
  if (expected === 'object') {
    const e = example as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    return Object.keys(e).flatMap((key) => {
      const at = `${path}.${key}`;
      if (key in a) return shapeMismatches(e[key], a[key], optional, at);
      return optional.has(withoutIndexes(at)) ? [] : [`${at}: missing in the stub`];
    });
  }
  return [];
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** One example element with every key any element has (the first non-null value of each). */
function mergeExamples(items: unknown[]): unknown {
  const objects = items.filter((i) => i !== null && typeof i === 'object' && !Array.isArray(i));
  if (objects.length !== items.length) return items.find((i) => i !== null) ?? null;
  const merged: Record<string, unknown> = {};
  for (const item of objects as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(item)) {
      if (!(key in merged) || merged[key] === null) merged[key] = value;
    }
  }
  return merged;
}

function withoutIndexes(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

function unique(line: string, index: number, all: string[]): boolean {
  // Paths differ only by array index: report each mismatch once.
  const key = withoutIndexes(line);
  return all.findIndex((other) => withoutIndexes(other) === key) === index;
}
