// Filling in a form (issue 11): the public routes a fill-in page calls.
//   GET  /api/jimu/form/fill/get?id      the form and its widgets, to render it
//   POST /api/jimu/form/fill/submit?id   { values } → checked against the form's own fields, then stored
//   POST /api/jimu/form/fill/upload?id   multipart, one image (the uploads service's checks) → { url, alt }
// The routes are public by route config (the guard lets anyone through and recognises a live session);
// the form decides: fill_access 'login' needs a signed-in caller (else status 2 / HTTP 401, as any
// unsigned call), 'public' takes anyone. Each client address is rate limited on all three.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { MSG_NOT_SIGNED_IN } from '../../core/auth.js';
import { BizError, ok, UnsignedError } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import { now } from '../../store/columns.js';
import { UPLOAD } from '../../core/uploads.js';
import { clientAddress } from '../../core/limits.js';
import { customPatternsOf, FORM_BUCKET, formValidator, type FormWidget } from './fields.js';
import { judgePatterns } from '../../core/patterns.js';
import { LIMITS, type KindConfig, type KindMessages } from './kinds.js';
import { findPage, pageWidgets, presentWidgets, type PageRow } from './store.js';
import { scheduleFormImageSweep } from './formImages.js';
import { withDatasetOptions } from './datasetOptions.js';

/** Calls per client address per minute: generous for a shared office address, short of a flood. */
export const FILL_RATE = { get: 240, submit: 60, upload: 20, windowMs: 60_000 } as const;
/**
 * Images uploaded to one form and not (yet) named by an entry: at most this many. A public link must not
 * become free file hosting; the hourly sweep removes those older than a day, which frees the room again.
 */
export const PENDING_UPLOADS_PER_FORM = 200;
/** One image a call, and smaller than the image list allows: anyone with a public link may upload. */
export const FORM_UPLOAD = { ...UPLOAD, limit: 1, maxSizeMB: 10 };

const submitBody = {
  type: 'object',
  required: ['values'],
  properties: { values: { type: 'object', title: '填写内容' } },
} as const;

/** The text of a form's submit button after success: its own, else the general thanks. */
function thanksOf(widgets: ReturnType<typeof presentWidgets>, fallback: string): string {
  for (const w of widgets) {
    const text = w.widgetName === 'formSubmit' ? w.widgetProps.viewProps.successText : undefined;
    if (typeof text === 'string' && text.trim()) return text.trim();
  }
  return fallback;
}

export async function fillRoutes(app: FastifyInstance, cfg: KindConfig, msg: KindMessages) {
  const { db, dialect, schemas } = app.ctx;
  const messages = schemas.messages;

  // Scoped to this module (global: false): only the routes below carry a limit.
  await app.limits.register(app, 'form-fill:');
  const limited = (max: number) => ({ public: true, sessionOptional: true, rateLimit: { max, timeWindow: FILL_RATE.windowMs } });

  await app.uploads.accept(app, FORM_UPLOAD);
  scheduleFormImageSweep(app);

  /** The form, when this caller may fill it in. */
  const openForm = async (req: FastifyRequest, id: number): Promise<PageRow> => {
    const page = await findPage(db, dialect, cfg.kind, id);
    if (!page) throw new BizError(msg.notFound);
    if (page.fill_access !== 'public' && !req.user) throw new UnsignedError(MSG_NOT_SIGNED_IN);
    return page;
  };
  const closed = () => new BizError(messages.formClosed ?? '该表单已停止收集');
  const validatorOf = async (widgets: ReturnType<typeof presentWidgets>) => {
    const fields = widgets.map((w): FormWidget => ({ widgetName: w.widgetName, widgetTitle: w.widgetTitle, viewProps: w.widgetProps.viewProps }));
    // patterns judged off the event loop first (after a restart the verdicts are not cached yet)
    const verdicts = await judgePatterns(customPatternsOf(fields.map((f) => f.viewProps)));
    return formValidator(fields, { messages, dicts: await app.dicts.current(), verdicts });
  };

  app.get<{ Querystring: { id: number } }>('/fill/get', { config: limited(FILL_RATE.get), schema: { querystring: idQuery } }, async (req) => {
    const page = await openForm(req, req.query.id);
    return ok({
      page: {
        id: page.id,
        pageName: page.page_name,
        width: page.width,
        height: page.height,
        backgroundColor: page.background_color ?? '',
        theme: page.theme ?? '',
        backgroundImage: page.background_image ?? '',
        fillAccess: page.fill_access,
        accepting: Number(page.accepting),
      },
      widgets: await withDatasetOptions(app, presentWidgets(await pageWidgets(db, page.id)), req),
    });
  });

  app.post<{ Querystring: { id: number }; Body: { values: unknown } }>(
    '/fill/submit',
    {
      config: limited(FILL_RATE.submit),
      bodyLimit: LIMITS.submitBodyBytes,
      schema: { querystring: idQuery, body: submitBody },
      // a body past the limit is told in words that fit a form (the app's handler answers the envelope)
      errorHandler: (err: FastifyError) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new BizError(`提交内容过大（不能超过 ${LIMITS.submitBodyBytes / 1024} KB）`, 413);
        throw err;
      },
    },
    async (req) => {
      const page = await openForm(req, req.query.id);
      if (!Number(page.accepting)) throw closed();
      await app.uploads.checkRoom();
      const widgets = await withDatasetOptions(app, presentWidgets(await pageWidgets(db, page.id)), req);
      const v = await validatorOf(widgets);
      const sub = v.validate(req.body.values);
      // an image must be one this service stored for forms: not a URL made up to look like one
      const imageIds: number[] = [];
      if (sub.images.length) {
        const urls = sub.images.map((i) => i.url);
        const known = new Map((await db.selectFrom('file_image').select(['id', 'file_url']).where('bucket_name', '=', FORM_BUCKET).where('file_url', 'in', urls).execute()).map((r) => [r.file_url, r.id]));
        const missing = sub.images.find((i) => !known.has(i.url));
        if (missing) throw v.unknownImage(missing.field);
        imageIds.push(...new Set(known.values()));
      }
      const searchText = Object.values(sub.texts)
        .concat(Object.values(sub.data).flatMap((x) => (Array.isArray(x) ? x : [x]).filter((y) => y === null || typeof y !== 'object').map(String))) // a sub-table's rows are in its text
        .join('\n')
        .toLowerCase();
      const id = await db.transaction().execute(async (trx) => {
        // locked on PostgreSQL: a form deleted or closed meanwhile takes nothing more
        const current = await findPage(trx, dialect, cfg.kind, page.id, true);
        if (!current) throw new BizError(msg.notFound);
        if (!Number(current.accepting)) throw closed();
        const row = await trx
          .insertInto('jimu_form_entry')
          .values({
            form_id: page.id,
            data: JSON.stringify(sub.data),
            labels: JSON.stringify(sub.labels),
            kinds: JSON.stringify(sub.kinds),
            texts: JSON.stringify(sub.texts),
            search_text: searchText,
            create_user: req.user?.username ?? null,
            create_ip: clientAddress(req).slice(0, 64),
            create_time: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // the images this entry keeps from the sweep
        if (imageIds.length) await trx.insertInto('jimu_form_entry_image').values(imageIds.map((fileImageId) => ({ entry_id: Number(row.id), file_image_id: fileImageId }))).execute();
        return Number(row.id);
      });
      return ok({ id }, thanksOf(widgets, messages.formThanks ?? '提交成功'));
    },
  );

  app.post<{ Querystring: { id: number } }>('/fill/upload', { config: limited(FILL_RATE.upload), schema: { querystring: idQuery } }, async (req) => {
    const page = await openForm(req, req.query.id);
    if (!Number(page.accepting)) throw closed();
    const hasImageField = (await validatorOf(presentWidgets(await pageWidgets(db, page.id)))).fields.some((f) => f.kind === 'image');
    if (!hasImageField) throw new BizError('该表单没有图片上传字段');
    const pending = await db
      .selectFrom('jimu_form_upload as u')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('u.form_id', '=', page.id)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('jimu_form_entry_image as c').select('c.entry_id').whereRef('c.file_image_id', '=', 'u.file_image_id'))))
      .executeTakeFirst();
    if (Number(pending?.n ?? 0) >= PENDING_UPLOADS_PER_FORM) throw new BizError('该表单待提交的图片过多，请先提交已填写的内容或稍后再试');
    const got = await app.uploads.receive(req, FORM_UPLOAD);
    try {
      const [file] = await app.uploads.store(got.files, FORM_BUCKET, req.user?.username ?? null);
      // the sweep's to remove, unless an entry comes to name it
      await db.insertInto('jimu_form_upload').values({ file_image_id: file.id, form_id: page.id, create_time: now() }).execute();
      return ok({ url: file.fileUrl, alt: file.fileName.replace(/\.[^.]+$/, '') }, '上传文件成功');
    } finally {
      await got.discard(); // whatever was not moved into the bucket
    }
  });
}
