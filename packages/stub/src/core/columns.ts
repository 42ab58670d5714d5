/**
 * Growable typed-array columns: the append-only logs of /__stub/effects hold 100,000s of rows
 * (arrivals, sync marks) at ~20 bytes a row instead of ~150 for an object per row.
 */
type TypedArray = Float64Array | Int32Array | Uint8Array | Uint16Array;
type TypedArrayCtor<T extends TypedArray> = new (length: number) => T;

export class Column<T extends TypedArray> {
  private data: T;

  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    initial = 1024,
  ) {
    this.data = new ctor(initial);
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, value: number): void {
    if (i >= this.data.length) this.grow(i + 1);
    this.data[i] = value;
  }

  private grow(min: number): void {
    let length = this.data.length * 2;
    while (length < min) length *= 2;
    const next = new this.ctor(length);
    next.set(this.data as never);
    this.data = next;
  }
}

/** Interns strings (route patterns, IPs) as small integer codes for columns. */
export class Interner {
  private readonly codes = new Map<string, number>();
  private readonly values: string[] = [];

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }

  value(code: number): string {
    return this.values[code] ?? '';
  }
}
