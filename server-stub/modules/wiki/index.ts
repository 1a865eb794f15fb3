// Wiki and its files (spec part 1 §2 "Wiki", §3 "Wiki node", §4, §5, §7 "Wiki and files"):
//   POST /api/doc/wikigroup/select        the whole tree as a flat list (no bodies); with ?id= it deletes that group
//   POST /api/doc/wikigroup/save          a group (folder): id?, parentId, title
//   GET  /api/doc/wikidetail/get?id       one document with its body
//   POST /api/doc/wikidetail/save         a document: id?, title, docContent, docType 1, parentId, revision? → its id
//   POST /api/doc/wikidetail/delete?id
//   POST /api/doc/wikidetail/preview      the body as it would be stored (sanitized), for the editor's preview
//   POST /api/doc/file/upload             multipart fileBizType + file → { url, alt } (rich-text images)
//   POST /api/doc/file/uploadOne          multipart fileBizType + file → the stored file record
//
// Groups and documents are one table (docType 1 a document, 0 a folder). Bodies are sanitized before they
// are stored (sanitize.ts), so what is read back is always the sanitized copy. A save that names the
// revision it was loaded at is refused when someone saved in between (no silent overwrite).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertPermission } from '../../core/auth.js';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, optionalId } from '../../core/declarations.js';
import { declareTable, type TableRow } from '../../core/tables.js';
import type { ServerModule } from '../../core/module.js';
import { now } from '../../store/columns.js';
import { BUCKET_RE, UPLOAD } from '../../core/uploads.js';
import { sanitizeWiki } from './sanitize.js';

const TABLE = 'doc_wiki';

/** Groups and documents: one tree (parent_id 0 is the root); the tree is read and written by this module's own routes. */
export const wikiNodes = declareTable({
  name: TABLE,
  migration: '20261124_10_doc_wiki',
  columns: {
    id: { type: 'id' },
    parentId: { type: 'integer', notNull: true, default: 0 },
    title: { type: 'varchar(100)', notNull: true },
    docContent: { type: 'text' },
    docType: { type: 'integer', notNull: true, default: 1 },
    status: { type: 'integer', notNull: true, default: 0 },
    revision: { type: 'integer', notNull: true, default: 1 },
    createUser: { type: 'varchar(100)' },
    createTime: { type: 'time', notNull: true },
    updateUser: { type: 'varchar(100)' },
    updateTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ix_doc_wiki_parent', columns: ['parentId'] }],
});
export type WikiTable = TableRow<typeof wikiNodes>;
declare module '../../store/schema.js' {
  interface Database {
    doc_wiki: WikiTable;
  }
}

export const DOC_TYPE = { folder: 0, document: 1 } as const;
export const LIMITS = { title: 100, body: 1_000_000, depth: 20, nodes: 20_000 };
export const MSG = {
  titleRequired: '请输入标题',
  titleTooLong: `标题长度不能超过${LIMITS.title}个字符`,
  bodyTooLong: '正文过长，请拆分为多篇文档',
  noGroup: '分组不存在',
  noDoc: '文档不存在',
  notEmpty: (t: string) => `分组【${t}】下还有文档或分组，不能删除`,
  underItself: (t: string) => `节点【${t}】不能移到自己节点下`,
  parentNotFolder: '上级节点必须是分组',
  tooDeep: `分组层级不能超过${LIMITS.depth}层`,
  stale: (r: number) => `该文档已被他人修改（当前版本 ${r}），请刷新后再保存`,
  tooMany: `节点数量已达上限 ${LIMITS.nodes}`,
};
/** Files uploaded from the editor go to this bucket unless fileBizType names another valid one. */
const WIKI_BUCKET = 'wiki';
const WIKI_UPLOAD = { ...UPLOAD, limit: 1 };

const title = { type: 'string', maxLength: 400, title: '标题' } as const;
const parentId = { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, title: '上级分组' } as const;
const groupBody = { type: 'object', properties: { id: optionalId('编号'), parentId, title }, additionalProperties: false } as const;
const docBody = {
  type: 'object',
  properties: {
    id: optionalId('编号'),
    parentId,
    title,
    docContent: { type: ['string', 'null'], title: '正文' },
    docType: { type: ['integer', 'null'], enum: [1, null], title: '文档类型' },
    revision: optionalId('版本', 0),
  },
  additionalProperties: false,
} as const;
const optionalIdQuery = { type: 'object', properties: { id: optionalId('编号') } } as const;

type Row = Selectable<WikiTable>;

/** A node as the API shows it; bodies only where asked (the tree never carries them). */
function present(r: Row, withBody = false) {
  return {
    id: r.id,
    parentId: r.parent_id,
    title: r.title,
    docType: r.doc_type,
    status: r.status,
    revision: r.revision,
    createUser: r.create_user,
    createTime: r.create_time,
    updateUser: r.update_user,
    updateTime: r.update_time,
    ...(withBody ? { docContent: r.doc_content ?? '' } : {}),
  };
}

function checkTitle(v: unknown): string {
  const t = typeof v === 'string' ? v.trim() : '';
  if (!t) throw new BizError(MSG.titleRequired);
  if ([...t].length > LIMITS.title) throw new BizError(MSG.titleTooLong);
  return t;
}

/** Where a saved group or document goes and what it is called: its checked title and its parent (0: the root). */
function placeOf(b: { title?: string; parentId?: number | null }): { t: string; parent: number } {
  return { t: checkTitle(b.title), parent: b.parentId ?? 0 };
}

const wikiPlugin = async (app: FastifyInstance) => {
  const { db } = app.ctx;
  const user = (req: FastifyRequest) => req.user?.username ?? null;
  const find = (id: number) => db.selectFrom(TABLE).selectAll().where('id', '=', id).executeTakeFirst() as Promise<Row | undefined>;

  /** The parent a node may be placed under: the root (0) or an existing folder, never the node itself or below it. */
  async function checkParent(parent: number, self?: Row): Promise<void> {
    let cur = parent;
    for (let depth = 0; cur !== 0; depth++) {
      if (depth >= LIMITS.depth) throw new BizError(MSG.tooDeep);
      const p = await find(cur);
      if (!p) throw new BizError(MSG.noGroup);
      if (p.doc_type === DOC_TYPE.document) throw new BizError(MSG.parentNotFolder);
      if (self && p.id === self.id) throw new BizError(MSG.underItself(self.title));
      cur = p.parent_id;
    }
  }

  async function insert(row: Omit<Insertable<WikiTable>, 'id' | 'revision' | 'create_time' | 'update_time' | 'status'>): Promise<number> {
    const n = await db.selectFrom(TABLE).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    if (Number(n?.n ?? 0) >= LIMITS.nodes) throw new BizError(MSG.tooMany);
    const time = now();
    const r = await db
      .insertInto(TABLE)
      .values({ ...row, status: 0, revision: 1, create_time: time, update_time: time })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** Updates `id` from the revision it was read at; exactly one of several racing saves passes. */
  async function update(stored: Row, set: Pick<Updateable<WikiTable>, 'title' | 'parent_id' | 'doc_content'>, req: FastifyRequest, revision?: number | null): Promise<void> {
    const from = revision ?? stored.revision;
    const r = await db
      .updateTable(TABLE)
      .set({ ...set, revision: from + 1, update_user: user(req), update_time: now() })
      .where('id', '=', stored.id)
      .where('revision', '=', from)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      const cur = await find(stored.id);
      if (!cur) throw new BizError(stored.doc_type === DOC_TYPE.document ? MSG.noDoc : MSG.noGroup);
      throw new BizError(MSG.stale(cur.revision));
    }
  }

  // The spec has one call for the tree and for deleting a group: without id it lists, with ?id= it deletes.
  app.post<{ Querystring: { id?: number | null } }>('/wikigroup/select', { config: { perm: 'doc:wiki:list' }, schema: { querystring: optionalIdQuery } }, async (req) => {
    const id = req.query.id;
    if (id == null) {
      const rows = (await db
        .selectFrom(TABLE)
        .select(['id', 'parent_id', 'title', 'doc_type', 'status', 'revision', 'create_user', 'create_time', 'update_user', 'update_time'])
        .orderBy('doc_type', 'asc')
        .orderBy('id', 'asc')
        .execute()) as Row[];
      return ok(rows.map((r) => present(r)));
    }
    assertPermission(req, 'doc:wiki:edit');
    const group = await find(id);
    if (!group || group.doc_type === DOC_TYPE.document) throw new BizError(MSG.noGroup);
    // the emptiness check and the delete are one statement, so a document saved into it meanwhile is never orphaned
    const r = await db
      .deleteFrom(TABLE)
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom(`${TABLE} as c`).select('c.id').where('c.parent_id', '=', id))))
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new BizError(MSG.notEmpty(group.title));
    return ok(null, '删除成功');
  });

  app.post<{ Body: { id?: number | null; parentId?: number | null; title?: string } }>(
    '/wikigroup/save',
    { config: { perm: 'doc:wiki:edit' }, schema: { body: groupBody } },
    async (req) => {
      const b = req.body ?? {};
      const { t, parent } = placeOf(b);
      if (b.id) {
        const stored = await find(b.id);
        if (!stored || stored.doc_type === DOC_TYPE.document) throw new BizError(MSG.noGroup);
        await checkParent(parent, stored);
        await update(stored, { title: t, parent_id: parent }, req);
        return ok(stored.id, '保存成功');
      }
      await checkParent(parent);
      return ok(await insert({ parent_id: parent, title: t, doc_content: null, doc_type: DOC_TYPE.folder, create_user: user(req), update_user: user(req) }), '保存成功');
    },
  );

  app.get<{ Querystring: { id: number } }>('/wikidetail/get', { config: { perm: 'doc:wiki:list' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await find(req.query.id);
    if (!row || row.doc_type !== DOC_TYPE.document) throw new BizError(MSG.noDoc);
    return ok(present(row, true));
  });

  const body = (html: unknown): string => {
    const text = typeof html === 'string' ? html : '';
    if (text.length > LIMITS.body) throw new BizError(MSG.bodyTooLong);
    return sanitizeWiki(text);
  };

  app.post<{ Body: { id?: number | null; parentId?: number | null; title?: string; docContent?: string | null; revision?: number | null } }>(
    '/wikidetail/save',
    { config: { perm: 'doc:wiki:edit' }, schema: { body: docBody } },
    async (req) => {
      const b = req.body ?? {};
      const { t, parent } = placeOf(b);
      const content = body(b.docContent);
      await checkParent(parent);
      if (b.id) {
        const stored = await find(b.id);
        if (!stored || stored.doc_type !== DOC_TYPE.document) throw new BizError(MSG.noDoc);
        await update(stored, { title: t, parent_id: parent, doc_content: content }, req, b.revision);
        return ok(stored.id, '保存成功');
      }
      return ok(await insert({ parent_id: parent, title: t, doc_content: content, doc_type: DOC_TYPE.document, create_user: user(req), update_user: user(req) }), '保存成功');
    },
  );

  app.post<{ Body: { docContent?: string | null } }>(
    '/wikidetail/preview',
    { config: { perm: 'doc:wiki:edit' }, schema: { body: { type: 'object', properties: { docContent: docBody.properties.docContent }, additionalProperties: false } } },
    async (req) => ok(body(req.body?.docContent)),
  );

  app.post<{ Querystring: { id: number } }>('/wikidetail/delete', { config: { perm: 'doc:wiki:edit' }, schema: { querystring: idQuery } }, async (req) => {
    const r = await db.deleteFrom(TABLE).where('id', '=', req.query.id).where('doc_type', '=', DOC_TYPE.document).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new BizError(MSG.noDoc);
    return ok(null, '删除成功');
  });

  // Files: the uploads service's checks (type by content, size, name, disk room), one file a call.
  await app.uploads.accept(app, WIKI_UPLOAD);
  async function uploadOne(req: FastifyRequest) {
    const got = await app.uploads.receive(req, WIKI_UPLOAD);
    try {
      const biz = got.fields.fileBizType?.trim().toLowerCase() || WIKI_BUCKET;
      if (!BUCKET_RE.test(biz)) throw new BizError('文件业务类型只能包含小写字母、数字和短横线');
      const [file] = await app.uploads.store(got.files, biz, user(req));
      return file;
    } finally {
      await got.discard();
    }
  }
  app.post('/file/upload', { config: { perm: 'doc:wiki:edit' } }, async (req) => {
    const f = await uploadOne(req);
    return ok({ url: f.fileUrl, alt: f.fileName.replace(/\.[^.]+$/, ''), href: '' }, '上传文件成功');
  });
  app.post('/file/uploadOne', { config: { perm: 'doc:wiki:edit' } }, async (req) => ok(await uploadOne(req), '上传文件成功'));
};

export const wikiModule: ServerModule = {
  name: 'wiki',
  prefix: '/api/doc',
  service: 'platform',
  migrations: wikiNodes.migrations,
  needs: ['uploads'],
  plugin: wikiPlugin,
};
