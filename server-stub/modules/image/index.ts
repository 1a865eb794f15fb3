// Image files (spec part 1 §2 "Image file list", §3 "Image file", §5 upload rules, §7 "Images"):
//   /api/file/image/{searchImageList, getImageUrl, uploadImage, deleteFile}
// and the files themselves at GET /files/<bucketName>/<fileKey> (public, under a CSP sandbox).
//
// Uploads are checked on the server by the uploads service (core/uploads.ts): type by content (file-type for png/jpeg/webp; SVG = XML text whose
// root is <svg>), the extension must match the content, at most 10 files, at most 50 MB each, and no
// path tricks in names. Files are stored under DATA_DIR/files/<bucketName>/<fileKey> (fileKey generated).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { idQuery, requirePage } from '../../core/declarations.js';
import { listPageRoutes } from '../../core/tables.js';
import { BUCKET_RE, KEY_RE, UPLOAD, fileImages } from '../../core/uploads.js';

const TABLE = 'file_image';

/** Served files can never run script on the console's origin, whatever they contain. */
export const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const imagePlugin = async (app: FastifyInstance) => {
  const page = requirePage(app.ctx.schemas.pages, 'image');
  const up = { ...UPLOAD, ...(page.dialog?.upload ?? {}) };
  await app.uploads.accept(app, up);

  // searchImageList and deleteFile: the page declaration's calls; a deleted record's file goes with it
  const store = listPageRoutes(app, fileImages, {
    page: 'image',
    notFound: '文件不存在',
    filters: { bucketName: { type: ['string', 'null'], maxLength: 50 }, extName: { type: ['string', 'array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 10 } } },
    onDelete: (row) => app.uploads.remove(row.bucket_name, row.file_key).catch(() => undefined), // its record is gone either way
  });

  app.get<{ Querystring: { id: number } }>('/getImageUrl', { config: { perm: 'file:image:list' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await store.get(req.query.id);
    if (!row) throw new BizError('文件不存在');
    return ok(row.file_url);
  });

  app.post('/uploadImage', { config: { perm: 'file:image:upload' } }, async (req) => {
    const got = await app.uploads.receive(req, up);
    const bucketName = got.fields.bucketName || String(page.dialog?.defaults?.bucketName ?? 'gemini');
    try {
      return ok(await app.uploads.store(got.files, bucketName, req.user?.username ?? null), '上传文件成功');
    } finally {
      await got.discard(); // whatever was not moved into its bucket
    }
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
  // the table is core/uploads.ts (the uploads service records every stored file); its migration comes with this module
  migrations: fileImages.migrations,
  needs: ['uploads'],
  plugin: imagePlugin,
};

export const imageFilesModule: ServerModule = {
  name: 'image-files',
  prefix: '/files',
  service: 'platform',
  plugin: filesPlugin,
};
