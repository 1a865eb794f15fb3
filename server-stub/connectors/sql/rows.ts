// What a query may hand back: at most MAX_ROWS rows and about MAX_RESULT_BYTES of values. Every driver
// reads rows one at a time into a RowSink and stops reading (and stops the statement) once it is full, so
// a result of thousands of megabyte-sized values never sits in memory at once and cannot end the process.

/** Also the most rows a published API answers (issue 25 §4: the default cap, 10,000). */
export const MAX_ROWS = 10_000;
export const MAX_RESULT_BYTES = 32 * 1024 * 1024;

/**
 * A rough size of one row as it is held and answered: every column name (repeated in each row of the JSON
 * answer) and every value (UTF-16 strings, buffers by length, the rest as 8 bytes).
 */
export function rowBytes(row: Record<string, unknown>): number {
  let n = 16;
  for (const [k, v] of Object.entries(row)) {
    n += k.length * 2 + 8;
    if (typeof v === 'string') n += v.length * 2;
    else if (v instanceof Uint8Array) n += v.byteLength;
    else if (v !== null && typeof v === 'object') n += JSON.stringify(v)?.length ?? 8;
    else n += 8;
  }
  return n;
}

export class RowSink {
  readonly rows: Record<string, unknown>[] = [];
  truncated = false;
  private bytes = 0;
  constructor(
    private readonly maxRows = MAX_ROWS,
    private readonly maxBytes = MAX_RESULT_BYTES,
  ) {}

  /** Keeps the row if it fits; false once the sink is full (the caller then stops reading). */
  add(row: Record<string, unknown>): boolean {
    if (this.truncated) return false;
    const size = rowBytes(row);
    if (this.rows.length >= this.maxRows || this.bytes + size > this.maxBytes) {
      this.truncated = true;
      return false;
    }
    this.rows.push(row);
    this.bytes += size;
    return true;
  }

  result(columns: string[]) {
    return { columns, rows: this.rows, rowCount: this.rows.length, ...(this.truncated ? { truncated: true } : {}) };
  }
}
