// The `uploads` platform service (core/platform.ts, app.uploads): the image upload pipeline shared by every
// route that accepts pictures (the image list, the wiki's rich-text images, a form's fill-in): multipart parts
// are streamed to a temp file, then checked on the server — room on the disk (MIN_FREE_DISK_MB), a plain name,
// an accepted extension, the size limit, and the content sniffed to match the extension — and only then moved
// into DATA_DIR/files/<bucketName>/ and recorded in file_image (declared here; the image module owns its list
// and brings its migration).
import { createWriteStream, mkdirSync } from 'node:fs';
import { open, rename, rm, stat, statfs, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { BizError } from './envelope.js';
import { MSG_MALFORMED_UPLOAD } from './errors.js';
import { declareTable, type TableRow } from './tables.js';
import { now } from '../store/columns.js';

/** Uploaded files: one row per stored file. */
export const fileImages = declareTable({
  name: 'file_image',
  migration: '20261122_14_file_image',
  columns: {
    id: { type: 'id' },
    fileName: { type: 'varchar(200)', notNull: true },
    fileUrl: { type: 'varchar(400)', notNull: true },
    extName: { type: 'varchar(10)', notNull: true },
    size: { type: 'integer', notNull: true },
    bucketName: { type: 'varchar(50)', notNull: true },
    fileKey: { type: 'varchar(100)', notNull: true },
    contentType: { type: 'varchar(50)', notNull: true },
    createUser: { type: 'varchar(100)' },
    createTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ux_file_image_key', columns: ['bucketName', 'fileKey'], unique: true }],
});
declare module '../store/schema.js' {
  interface Database {
    file_image: TableRow<typeof fileImages>;
  }
}

export const UPLOAD = { limit: 10, maxSizeMB: 50, accept: '.jpg,.jpeg,.png,.webp,.svg' };
export type UploadRules = typeof UPLOAD;

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml' };
export const BUCKET_RE = /^[a-z0-9][a-z0-9-]{0,49}$/;
export const KEY_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|jpeg|webp|svg)$/;
/** The URL of a file this service stored: the only image source a stored rich text may keep. */
export const OWN_FILE_URL = /^\/files\/[a-z0-9][a-z0-9-]{0,49}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|jpeg|webp|svg)$/;

export const MSG = {
  tooMany: (n: number) => `超过了限制，每次只能上传${n}个文件。`,
  tooBig: (mb: number) => `文件大小不能超过${mb}MB!`,
  wrongType: (accept: string) => `只能上传${accept}文件!`,
  noFiles: '请先上传文件',
  badName: '文件名不合法',
  diskFull: '服务器存储空间不足，暂时不能保存，请联系管理员',
};

/**
 * Refuses (HTTP 507) while the disk holding `dir` has less than `minFreeBytes` free (MIN_FREE_DISK_MB): what
 * outside callers can store must not take the room the platform store, the logs and the sessions need.
 */
export async function checkDiskRoom(dir: string, minFreeBytes: number): Promise<void> {
  if (minFreeBytes <= 0) return;
  const fs = await statfs(dir);
  if (fs.bavail * fs.bsize < minFreeBytes) throw new BizError(MSG.diskFull, 507);
}

/** The name of an uploaded file: a plain name, no directories, no NUL, no control characters. */
export function checkFileName(name: string): void {
  const control = [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!name || name.length > 200 || /[/\\]/.test(name) || name.includes('..') || control) throw new BizError(MSG.badName);
}

async function head(file: string, bytes: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The type of a stored upload by its content: 'png' | 'jpg' | 'webp' | 'svg' | undefined. */
export async function sniff(file: string): Promise<string | undefined> {
  const t = await fileTypeFromFile(file);
  if (t && ['png', 'jpg', 'webp'].includes(t.ext)) return t.ext;
  if (t && t.ext !== 'xml' && t.ext !== 'svg') return undefined; // another binary type
  const text = (await head(file, 64 * 1024)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  const svg = /^(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<svg[\s>/]/i;
  return svg.test(text) ? 'svg' : undefined;
}

function matches(ext: string, kind: string): boolean {
  return ext === kind || (kind === 'jpg' && ext === 'jpeg');
}

/** @fastify/multipart options for these rules (passed with each call, whoever registered multipart). */
export function partsOptions(up: UploadRules) {
  return {
    preservePath: true, // see the name as sent, so '../x.png' is refused rather than silently cut
    limits: { files: up.limit, fileSize: up.maxSizeMB * 1024 * 1024, fields: 20, parts: up.limit + 20, fieldSize: 1024 },
  };
}

export interface StagedFile {
  tmp: string;
  name: string;
  ext: string;
  size: number;
}

export interface Received {
  files: StagedFile[];
  /** the text fields of the form, by name (first value wins) */
  fields: Record<string, string>;
  /** removes the staged files (after a refusal, or when they were not kept) */
  discard(): Promise<void>;
}

/**
 * Streams the files of a multipart request (fields `files` or `file`) to `tmpDir`, checked by `up`.
 * Throws BizError with the spec's upload messages; nothing staged survives a refusal.
 */
export async function receiveImages(req: FastifyRequest, up: UploadRules, tmpDir: string): Promise<Received> {
  if (!req.isMultipart()) throw new BizError('请以 multipart/form-data 上传文件');
  await checkDiskRoom(tmpDir, req.server.ctx.config.minFreeDiskBytes);
  const files: StagedFile[] = [];
  const fields: Record<string, string> = {};
  const discard = async () => {
    await Promise.all(files.map((f) => rm(f.tmp, { force: true })));
  };
  const accepted = up.accept.split(',').map((a) => a.trim().replace(/^\./, '').toLowerCase());
  try {
    for await (const part of req.parts(partsOptions(up) as never)) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !(part.fieldname in fields)) fields[part.fieldname] = part.value;
        continue;
      }
      const refuse = (err: Error): never => {
        part.file.resume();
        throw err;
      };
      if (part.fieldname !== 'files' && part.fieldname !== 'file') refuse(new BizError(`不支持的文件字段：${part.fieldname}`));
      const name = part.filename ?? '';
      try {
        checkFileName(name);
      } catch (e) {
        refuse(e as Error);
      }
      const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
      if (!accepted.includes(ext)) refuse(new BizError(MSG.wrongType(up.accept)));
      // A body that ends inside this part can reach us with the part already closed (busboy saw the end before
      // the handler asked for parts, as after an await); pipeline() would wait on it for ever, holding the
      // request and an open temp file.
      if (part.file.destroyed) throw new BizError(MSG_MALFORMED_UPLOAD, 400);
      const file = join(tmpDir, randomUUID());
      files.push({ tmp: file, name, ext, size: 0 });
      await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
      if (part.file.truncated) throw new BizError(MSG.tooBig(up.maxSizeMB));
      files[files.length - 1].size = (await stat(file)).size;
    }
    if (!files.length) throw new BizError(MSG.noFiles);
    for (const f of files) {
      const kind = await sniff(f.tmp);
      if (!kind || !matches(f.ext, kind)) throw new BizError(`文件【${f.name}】的内容与类型不符，${MSG.wrongType(up.accept)}`);
    }
  } catch (err) {
    await discard();
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new BizError(MSG.tooMany(up.limit));
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new BizError(MSG.tooBig(up.maxSizeMB));
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new BizError('表单字段过多');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new BizError('请以 multipart/form-data 上传文件');
    throw err;
  }
  return { files, fields, discard };
}

export interface StoredImage {
  id: number;
  fileName: string;
  fileUrl: string;
  extName: string;
  size: number;
  bucketName: string;
  fileKey: string;
}

/** Moves staged files into `bucketName` under a generated key and records them. */
export async function storeImages(app: FastifyInstance, staged: StagedFile[], bucketName: string, user: string | null): Promise<StoredImage[]> {
  if (!BUCKET_RE.test(bucketName)) throw new BizError('所属服务只能包含小写字母、数字和短横线');
  const dir = join(app.ctx.config.dataDir, 'files', bucketName);
  mkdirSync(dir, { recursive: true });
  const out: StoredImage[] = [];
  for (const f of staged) {
    const fileKey = `${randomUUID()}.${f.ext}`;
    await rename(f.tmp, join(dir, fileKey));
    const rec = {
      file_name: f.name,
      file_url: `/files/${bucketName}/${fileKey}`,
      ext_name: f.ext,
      size: f.size,
      bucket_name: bucketName,
      file_key: fileKey,
      content_type: CONTENT_TYPES[f.ext],
      create_user: user,
      create_time: now(),
    };
    const r = await app.ctx.db.insertInto('file_image').values(rec).returning('id').executeTakeFirstOrThrow();
    out.push({ id: r.id, fileName: rec.file_name, fileUrl: rec.file_url, extName: rec.ext_name, size: rec.size, bucketName, fileKey });
  }
  return out;
}

/** Removes a stored file from its bucket folder (names checked again: they come from the store); one already gone is fine. */
export async function removeStoredFile(dataDir: string, bucketName: string, fileKey: string): Promise<void> {
  if (!BUCKET_RE.test(bucketName) || !KEY_RE.test(fileKey)) return;
  await unlink(join(dataDir, 'files', bucketName, fileKey)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** The temp folder uploads are staged in (created on first use). */
export function stagingDir(app: FastifyInstance): string {
  const tmp = join(app.ctx.config.dataDir, 'files', '.tmp');
  mkdirSync(tmp, { recursive: true });
  return tmp;
}

/** The `uploads` platform service: what a module that takes files uses, bound to this app's DATA_DIR and MIN_FREE_DISK_MB. */
export interface UploadsService {
  /** Lets `scope` (a module's own scope) parse multipart bodies under `up` (once per scope). */
  accept(scope: FastifyInstance, up: UploadRules): Promise<void>;
  /** Receives and checks a request's files under `up`, staged (see receiveImages); refused while the disk is short. */
  receive(req: FastifyRequest, up: UploadRules): Promise<Received>;
  /** Moves staged files into `bucketName` and records them in file_image. */
  store(staged: StagedFile[], bucketName: string, user: string | null): Promise<StoredImage[]>;
  /** Removes a stored file from its bucket folder (one already gone is fine). */
  remove(bucketName: string, fileKey: string): Promise<void>;
  /** Refuses (HTTP 507, 服务器存储空间不足…) while the disk holding the uploads has less than MIN_FREE_DISK_MB free. */
  checkRoom(): Promise<void>;
}

export function uploadsService(app: FastifyInstance): UploadsService {
  const { config } = app.ctx; // read at each call (MIN_FREE_DISK_MB as the settings say now)
  const tmp = stagingDir(app);
  return {
    async accept(scope, up) {
      if (!scope.hasContentTypeParser('multipart/form-data')) await scope.register(multipart, partsOptions(up) as never);
    },
    receive: (req, up) => receiveImages(req, up, tmp),
    store: (staged, bucketName, user) => storeImages(app, staged, bucketName, user),
    remove: (bucketName, fileKey) => removeStoredFile(config.dataDir, bucketName, fileKey),
    checkRoom: () => checkDiskRoom(tmp, config.minFreeDiskBytes),
  };
}
