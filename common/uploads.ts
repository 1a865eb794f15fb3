// The spec's client-side upload checks (§5): which files a batch may add. The server checks again by content
// (server-stub/modules/image/receive.ts); this spares a round trip and words the refusal the same way everywhere.
import { message } from './messages';

export interface UploadRules { accept: string; limit: number; maxSizeMB: number }
export const DEFAULT_UPLOAD: UploadRules = { accept: '.jpg,.jpeg,.png,.webp,.svg', limit: 10, maxSizeMB: 50 };

interface FileLike { name: string; size: number }

/** The first fault of a batch being added to `existing` files, as the message to show, or null when it is fine. */
export function checkUpload(existing: number, batch: FileLike[], rules: UploadRules = DEFAULT_UPLOAD): string | null {
  if (existing + batch.length > rules.limit) return message('uploadLimit', { limit: rules.limit });
  const exts = rules.accept.split(',').map((e) => e.trim().toLowerCase());
  for (const f of batch) {
    const dot = f.name.lastIndexOf('.');
    const ext = dot >= 0 ? f.name.slice(dot).toLowerCase() : '';
    if (!exts.includes(ext)) return message('uploadAccept', { accept: rules.accept });
    if (f.size > rules.maxSizeMB * 1024 * 1024) return message('uploadSize', { size: rules.maxSizeMB });
  }
  return null;
}
