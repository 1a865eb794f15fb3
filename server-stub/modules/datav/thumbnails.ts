// A small picture of each screen (issue 22 item 3), taken by the designer in the browser at every save and shown
// in the screen list. Kept in the store (datav_thumbnail, one row a screen, deleted and copied with it), never
// under the public /files/ route: reading one needs the list's permission, setting one the edit permission.
//
//   POST thumbnail/upload?id   edit   multipart, one image in `file`: png, jpg/jpeg or webp (checked by content by
//                                     the uploads service), at most THUMBNAIL.maxBytes
//   GET  thumbnail?id          list   the image itself (its stored type, nosniff, sandboxed, ETag / 304);
//                                     404 with 该大屏还没有缩略图 when none was taken
// The list's records carry `thumbnail`: the stored picture's ETag, or null (the list asks only for those it has).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import type { UploadRules } from '../../core/uploads.js';
import { now } from '../../store/columns.js';
import type { KindConfig, KindMessages } from './kinds.js';
import { findPage } from './store.js';

/** What a thumbnail may be: one picture, png / jpeg / webp (no svg: it is shown as an image, but never a document), ≤ 512 KB. */
export const THUMBNAIL = { maxBytes: 512 * 1024, accept: '.png,.jpg,.jpeg,.webp' } as const;
const RULES: UploadRules = { limit: 1, maxSizeMB: THUMBNAIL.maxBytes / (1024 * 1024), accept: THUMBNAIL.accept };
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };
/** Served pictures can never run script on the console's origin. */
const CSP = "default-src 'none'; sandbox";

export const NO_THUMBNAIL = '该大屏还没有缩略图';

export async function thumbnailRoutes(app: FastifyInstance, cfg: KindConfig, msg: KindMessages) {
  const { db, dialect } = app.ctx;
  await app.uploads.accept(app, RULES);

  app.post<{ Querystring: { id: number } }>('/thumbnail/upload', { config: { perm: cfg.perm.edit }, schema: { querystring: idQuery } }, async (req) => {
    const page = await findPage(db, dialect, cfg.kind, req.query.id);
    if (!page) throw new BizError(msg.notFound);
    const got = await app.uploads.receive(req, RULES);
    try {
      const [file] = got.files;
      const data = await readFile(file.tmp);
      const etag = createHash('sha256').update(data).digest('hex').slice(0, 32);
      const row = { content_type: TYPES[file.ext], size: data.length, etag, data, update_user: req.user!.username, update_time: now() };
      await db.transaction().execute(async (trx) => {
        // the page may have been deleted while the picture travelled: no thumbnail of a screen that is gone
        const live = await findPage(trx, dialect, cfg.kind, page.id, true);
        if (!live) throw new BizError(msg.notFound);
        await trx
          .insertInto('datav_thumbnail')
          .values({ page_id: page.id, ...row })
          .onConflict((oc) => oc.column('page_id').doUpdateSet(row))
          .execute();
      });
      return ok({ thumbnail: etag, size: data.length, contentType: row.content_type }, '缩略图已保存');
    } finally {
      await got.discard();
    }
  });

  app.get<{ Querystring: { id: number } }>('/thumbnail', { config: { perm: cfg.perm.list }, schema: { querystring: idQuery } }, async (req, reply) => {
    const row = await db
      .selectFrom('datav_thumbnail as t')
      .innerJoin('datav_page as p', 'p.id', 't.page_id')
      .select(['t.content_type', 't.etag', 't.data'])
      .where('t.page_id', '=', req.query.id)
      .where('p.kind', '=', cfg.kind)
      .where('p.deleted_time', 'is', null)
      .executeTakeFirst();
    if (!row) return reply.code(404).send({ status: 1, msg: NO_THUMBNAIL, data: null });
    const tag = `"${row.etag}"`;
    reply
      .header('content-type', row.content_type)
      .header('etag', tag)
      .header('cache-control', 'private, no-cache')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-origin');
    if (req.headers['if-none-match'] === tag) return reply.code(304).send();
    return reply.send(Buffer.from(row.data));
  });
}
