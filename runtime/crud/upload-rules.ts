import { msg } from './messages';

export interface UploadRules { accept: string; limit: number; maxSizeMB: number }
export const DEFAULT_UPLOAD: UploadRules = { accept: '.jpg,.jpeg,.png,.webp,.svg', limit: 10, maxSizeMB: 50 };

interface FileLike { name: string; size: number }

/**
 * The spec's client-side checks (§5) for a batch being added to `existing`
 * files. Returns the first fault's message, or null when the batch is fine.
 * The server checks again by content; this only spares a round trip.
 */
export function checkUpload(existing: number, batch: FileLike[], rules: UploadRules = DEFAULT_UPLOAD): string | null {
  if (existing + batch.length > rules.limit) return msg('uploadLimit', { limit: rules.limit });
  const exts = rules.accept.split(',').map((e) => e.trim().toLowerCase());
  for (const f of batch) {
    const dot = f.name.lastIndexOf('.');
    const ext = dot >= 0 ? f.name.slice(dot).toLowerCase() : '';
    if (!exts.includes(ext)) return msg('uploadAccept', { accept: rules.accept });
    if (f.size > rules.maxSizeMB * 1024 * 1024) return msg('uploadSize', { size: rules.maxSizeMB });
  }
  return null;
}
