// API keys for calling published APIs (ours; DESIGN §7): created on a small screen, shown once, kept only as
// a SHA-256 hash (a key is 32 random bytes, so a fast hash is enough: there is nothing to guess), revocable.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, likePattern } from '../../core/declarations.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { sql } from 'kysely';
import { PERM } from './perms.js';

const PREFIX = 'dsk_';
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** The live key a caller sent, or undefined (unknown, malformed or revoked). */
export async function findKey(db: Kysely<Database>, key: string) {
  if (key.length > 200 || !key.startsWith(PREFIX)) return undefined;
  const row = await db.selectFrom('gemini_api_key').select(['id', 'last_used_time']).where('key_hash', '=', hashOf(key)).where('revoked', '=', 0).executeTakeFirst();
  if (!row) return undefined;
  // last use to the minute: one write a minute per key at most, not one per call
  const minute = now().slice(0, 16);
  if (!row.last_used_time?.startsWith(minute)) await db.updateTable('gemini_api_key').set({ last_used_time: now() }).where('id', '=', row.id).execute();
  return row;
}

const SORT: Record<string, string> = { keyName: 'key_name', createTime: 'create_time', lastUsedTime: 'last_used_time' };

export function keyRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const present = (r: { id: number; key_name: string; key_prefix: string; create_user: string; create_time: string; revoked: number; last_used_time: string | null }) => ({
    id: r.id,
    keyName: r.key_name,
    keyPrefix: `${r.key_prefix}…`,
    createUser: r.create_user,
    createTime: r.create_time,
    revoked: r.revoked,
    lastUsedTime: r.last_used_time,
  });

  app.post<{ Body: Record<string, any> }>('/key/search', { config: { perm: PERM.keyList }, schema: { body: listQuerySchema({ revoked: { type: ['integer', 'array', 'null'], maxItems: 2, items: { type: 'integer' }, title: '已吊销' } }) } }, async (req) => {
    const q = req.body ?? {};
    const filter = (qb: any) => {
      const text = typeof q.search === 'string' ? q.search.trim() : '';
      if (text) qb = qb.where(sql<boolean>`lower(key_name) like ${likePattern(text.toLowerCase())} escape '\\'`);
      const revoked = q.revoked == null ? [] : [q.revoked].flat();
      if (revoked.length) qb = qb.where('revoked', 'in', revoked);
      return qb;
    };
    const win = pageOf(q, SORT);
    const total = await filter(db.selectFrom('gemini_api_key').select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
    let rows = filter(db.selectFrom('gemini_api_key').selectAll());
    rows = win.order ? rows.orderBy(win.order.column, win.order.dir).orderBy('id', 'desc') : rows.orderBy('id', 'desc');
    return ok({ records: (await rows.limit(win.limit).offset(win.offset).execute()).map(present), total: Number(total?.n ?? 0) });
  });

  app.post<{ Body: { keyName?: string | null } }>(
    '/key/add',
    { config: { perm: PERM.keyAdd }, schema: { body: { type: 'object', properties: { keyName: { type: ['string', 'null'], maxLength: 200, title: '名称' } } } } },
    async (req) => {
      const name = (req.body.keyName ?? '').trim();
      if (!name) throw new BizError('请输入名称');
      if ([...name].length > 50) throw new BizError('名称不能超过50个字符');
      const key = PREFIX + randomBytes(32).toString('base64url');
      const row = await db
        .insertInto('gemini_api_key')
        .values({ key_name: name, key_prefix: key.slice(0, PREFIX.length + 6), key_hash: hashOf(key), create_user: req.user!.username, create_time: now(), revoked: 0, last_used_time: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      // the only time the key is ever shown
      return ok({ id: Number(row.id), keyName: name, apiKey: key }, '添加成功，请立即复制保存，API Key 只显示这一次');
    },
  );

  app.get<{ Querystring: { id: number } }>('/key/revoke', { config: { perm: PERM.keyRemove }, schema: { querystring: idQuery } }, async (req) => {
    const r = await db.updateTable('gemini_api_key').set({ revoked: 1 }).where('id', '=', req.query.id).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new BizError('API Key 不存在');
    return ok(null, '吊销成功');
  });
}
