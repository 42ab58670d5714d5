import { ApiError, invalid } from '../core/errors.ts';
import type { Faults } from '../faults.ts';

/**
 * Upload batches (docs/platform.md F8-F12, G9): 1..500 items (checked by the schema),
 * validated whole before anything is created. Any bad item refuses the batch and nothing is
 * created: a repeated id inside the batch or an id the platform refuses is 422 DEVELOPER_7001
 * naming the items; an id that already exists is 400 DEVELOPER_7020 naming the duplicates (F12).
 */
interface BatchItemRef {
  index: number;
  id: string;
  reason?: string;
}

export function checkUploadBatch(
  list: string,
  ids: string[],
  exists: (id: string) => boolean,
  faults: Faults,
  extraCheck?: (index: number) => string | null,
): void {
  const firstAt = new Map<string, number>();
  const repeated: BatchItemRef[] = [];
  ids.forEach((id, index) => {
    if (firstAt.has(id)) repeated.push({ index, id, reason: `repeats item ${firstAt.get(id)}` });
    else firstAt.set(id, index);
  });
  if (repeated.length > 0) {
    throw invalid(`${list}: the same id appears more than once in the batch`, {
      items: repeated,
      fields: repeated.map((r) => `${list}.${r.index}.id`),
    });
  }
  const refused: BatchItemRef[] = [];
  ids.forEach((id, index) => {
    // PUT /__stub/faults reject_remote_ids: items only the platform can judge invalid.
    if (faults.isRejectedRemoteId(id)) refused.push({ index, id, reason: 'rejected by the platform' });
    const problem = extraCheck?.(index);
    if (problem) refused.push({ index, id, reason: problem });
  });
  if (refused.length > 0) {
    throw invalid(
      `${list}: ${refused.length} item(s) invalid: ${refused
        .slice(0, 5)
        .map((r) => `#${r.index} ${r.id} (${r.reason})`)
        .join(', ')}`,
      { items: refused, fields: refused.map((r) => `${list}.${r.index}`) },
    );
  }
  const duplicates = ids.map((id, index) => ({ index, id })).filter((r) => exists(r.id));
  if (duplicates.length > 0) {
    throw new ApiError(
      'DEVELOPER_7020',
      `${list}: remote id(s) already exist: ${duplicates.map((d) => d.id).join(', ')}`,
      {
        duplicate_ids: duplicates.map((d) => d.id),
        items: duplicates,
      },
    );
  }
}
