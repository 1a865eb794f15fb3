// Image files (spec part 1 §2 "Image file list", §3 "Image file", §5 upload rules, §7 "Images"):
//   /api/file/image/{searchImageList, getImageUrl, uploadImage, deleteFile}
// and the files themselves at GET /files/<bucketName>/<fileKey> (public, under a CSP sandbox).
//
// Uploads are checked on the server: type by content (file-type for png/jpeg/webp; SVG = XML text whose
// root is <svg>), the extension must match the content, at most 10 files, at most 50 MB each, and no
// path tricks in names. Files are stored under DATA_DIR/files/<bucketName>/<fileKey> (fileKey generated).
import type { Generated } from 'kysely';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { open, rename, rm, stat, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { fileTypeFromFile } from 'file-type';
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import type { ServerModule } from '../../core/module.js';
import { deleteRow, getRow, idQuery, listTable, migration, requirePage, searchFieldsOf, sortableFieldsOf, type TableSpec } from '../../core/declarations.js';
import { idColumn, now } from '../../store/columns.js';

export interface FileImageTable {
  id: Generated<number>;
  file_name: string;
  file_url: string;
  ext_name: string;
  size: number;
  bucket_name: string;
  file_key: string;
  content_type: string;
  create_user: string | null;
  create_time: string;
}
declare module '../../store/schema.js' {
  interface Database {
    file_image: FileImageTable;
  }
}

const TABLE = 'file_image';
const FIELDS = {
  fileName: 'file_name',
  fileUrl: 'file_url',
  extName: 'ext_name',
  size: 'size',
  bucketName: 'bucket_name',
  fileKey: 'file_key',
  contentType: 'content_type',
  createUser: 'create_user',
  createTime: 'create_time',
};

export const UPLOAD = { limit: 10, maxSizeMB: 50, accept: '.jpg,.jpeg,.png,.webp,.svg' };
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml' };
const BUCKET_RE = /^[a-z0-9][a-z0-9-]{0,49}$/;
const KEY_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|jpeg|webp|svg)$/;
/** Served files can never run script on the console's origin, whatever they contain. */
export const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const MSG = {
  tooMany: (n: number) => `超过了限制，每次只能上传${n}个文件。`,
  tooBig: (mb: number) => `文件大小不能超过${mb}MB!`,
  wrongType: (accept: string) => `只能上传${accept}文件!`,
  noFiles: '请先上传文件',
  badName: '文件名不合法',
};

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

const imagePlugin = async (app: FastifyInstance) => {
  const page = requirePage(app.ctx.schemas.pages, 'image');
  const { db } = app.ctx;
  const up = { ...UPLOAD, ...(page.dialog?.upload ?? {}) };
  const root = join(app.ctx.config.dataDir, 'files');
  const tmp = join(root, '.tmp');
  mkdirSync(tmp, { recursive: true });
  const spec: TableSpec = { table: TABLE, fields: FIELDS, searchFields: searchFieldsOf(page), sortable: sortableFieldsOf(page), filters: ['bucketName', 'extName'] };

  // The limits go with each call (below), so this works whether or not multipart is registered higher up.
  const partsOptions = {
    preservePath: true, // see the name as sent, so '../x.png' is refused rather than silently cut
    limits: { files: up.limit, fileSize: up.maxSizeMB * 1024 * 1024, fields: 20, parts: up.limit + 20, fieldSize: 1024 },
  };
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, partsOptions as never);

  app.post<{ Body: any }>(
    '/searchImageList',
    { config: { perm: 'file:image:list' }, schema: { body: listQuerySchema({ bucketName: { type: ['string', 'null'], maxLength: 50 }, extName: { type: ['string', 'array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 10 } } }) } },
    async (req) => ok(await listTable(db, spec, (req.body ?? {}) as any)),
  );

  app.get<{ Querystring: { id: number } }>('/getImageUrl', { config: { perm: 'file:image:list' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await getRow(db, spec, req.query.id);
    if (!row) throw new BizError('文件不存在');
    return ok(row.file_url);
  });

  app.post('/uploadImage', { config: { perm: 'file:image:upload' } }, async (req) => {
    if (!req.isMultipart()) throw new BizError('请以 multipart/form-data 上传文件');
    const staged: Array<{ tmp: string; name: string; ext: string; size: number }> = [];
    let bucketName = String(page.dialog?.defaults?.bucketName ?? 'gemini');
    const discard = () => Promise.all(staged.map((f) => rm(f.tmp, { force: true })));
    try {
      for await (const part of req.parts(partsOptions as never)) {
        if (part.type === 'field') {
          if (part.fieldname === 'bucketName' && typeof part.value === 'string' && part.value !== '') bucketName = part.value;
          continue;
        }
        if (part.fieldname !== 'files' && part.fieldname !== 'file') {
          part.file.resume();
          throw new BizError(`不支持的文件字段：${part.fieldname}`);
        }
        const name = part.filename ?? '';
        try {
          checkFileName(name);
        } catch (e) {
          part.file.resume();
          throw e;
        }
        const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
        const accepted = up.accept.split(',').map((a: string) => a.trim().replace(/^\./, '').toLowerCase());
        if (!accepted.includes(ext)) {
          part.file.resume();
          throw new BizError(MSG.wrongType(up.accept));
        }
        const file = join(tmp, randomUUID());
        staged.push({ tmp: file, name, ext, size: 0 });
        await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
        if (part.file.truncated) throw new BizError(MSG.tooBig(up.maxSizeMB));
        staged[staged.length - 1].size = (await stat(file)).size;
      }
      if (!staged.length) throw new BizError(MSG.noFiles);
      if (!BUCKET_RE.test(bucketName)) throw new BizError('所属服务只能包含小写字母、数字和短横线');
      for (const f of staged) {
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
    const dir = join(root, bucketName);
    mkdirSync(dir, { recursive: true });
    const out = [];
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
        create_user: req.user?.username ?? null,
        create_time: now(),
      };
      const r = await db.insertInto(TABLE).values(rec).returning('id').executeTakeFirstOrThrow();
      out.push({ id: r.id, fileName: rec.file_name, fileUrl: rec.file_url, extName: rec.ext_name, size: rec.size, bucketName, fileKey });
    }
    return ok(out, '上传文件成功');
  });

  app.get<{ Querystring: { id: number } }>('/deleteFile', { config: { perm: 'file:image:remove' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await getRow(db, spec, req.query.id);
    if (!row) throw new BizError('文件不存在');
    await deleteRow(db, spec, row.id);
    if (BUCKET_RE.test(row.bucket_name) && KEY_RE.test(row.file_key)) await unlink(join(root, row.bucket_name, row.file_key)).catch(() => undefined);
    return ok(null, '删除成功');
  });
};

/** GET /files/<bucketName>/<fileKey>: only recorded files, with their recorded type, sandboxed. */
const filesPlugin = async (app: FastifyInstance) => {
  const root = join(app.ctx.config.dataDir, 'files');
  app.get<{ Params: { bucket: string; key: string } }>('/:bucket/:key', { config: { public: true } }, async (req, reply) => {
    const { bucket, key } = req.params;
    const notFound = () => reply.code(404).header('content-type', 'application/json; charset=utf-8').send({ status: 1, msg: '文件不存在', data: null });
    if (!BUCKET_RE.test(bucket) || !KEY_RE.test(key)) return notFound();
    const row = await app.ctx.db.selectFrom(TABLE).select(['content_type', 'size', 'file_name']).where('bucket_name', '=', bucket).where('file_key', '=', key).executeTakeFirst();
    if (!row) return notFound();
    const path = join(root, bucket, key);
    const st = await stat(path).catch(() => null);
    if (!st) return notFound();
    reply
      .header('content-type', row.content_type)
      .header('content-length', st.size)
      .header('content-security-policy', FILE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(row.file_name)}`);
    return reply.send(createReadStream(path));
  });
};

export const imageModule: ServerModule = {
  name: 'image',
  prefix: '/api/file/image',
  service: 'platform',
  migrations: {
    '20261122_14_file_image': migration(async (db, dialect) => {
      await idColumn(db.schema.createTable(TABLE).ifNotExists(), dialect)
        .addColumn('file_name', 'varchar(200)', (c) => c.notNull())
        .addColumn('file_url', 'varchar(400)', (c) => c.notNull())
        .addColumn('ext_name', 'varchar(10)', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('bucket_name', 'varchar(50)', (c) => c.notNull())
        .addColumn('file_key', 'varchar(100)', (c) => c.notNull())
        .addColumn('content_type', 'varchar(50)', (c) => c.notNull())
        .addColumn('create_user', 'varchar(100)')
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ux_file_image_key').ifNotExists().unique().on(TABLE).columns(['bucket_name', 'file_key']).execute();
    }),
  },
  plugin: imagePlugin,
};

export const imageFilesModule: ServerModule = {
  name: 'image-files',
  prefix: '/files',
  service: 'platform',
  plugin: filesPlugin,
};
