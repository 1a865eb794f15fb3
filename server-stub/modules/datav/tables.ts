// The tables of the screen (大屏) and form (表单) designers (spec part 2 §3 "Screen or form page", "Widget"),
// and their migration. Screens and forms share both tables; `kind` tells them apart.
//
//  datav_page    one row per screen or form: canvas size, background, refresh, ruler lines, and a revision
//                that every successful save bumps (a save carrying an older revision is refused)
//  datav_widget  the widgets placed on a page, in stacking order (sort_no 0 = bottom); the id is the
//                browser's (a uuid: copies, pastes and undo-restores are created locally)
//  jimu_form_entry  one row per submitted form (issue 11): the values, and the field labels and kinds
//                as they were at submit time, so an entry stays readable after its form changes
// datav_page and jimu_form_entry are declared (core/tables.ts declareTable) and made by the migrations that
// always made them; datav_widget (a browser-made text key), jimu_form_upload (keyed by the image) and
// jimu_form_entry_image (a two-column key) have keys a declared table does not have and stay written by hand.
import type { Generated } from 'kysely';
import { declareTable, migration, type TableRow, timestamps } from '../../core/tables.js';
import { linkTable } from '../../store/columns.js';
import type { PageKind } from '../../../common/widgets.js';

export type { PageKind } from '../../../common/widgets.js';

/** datav_page as its first migration made it: one row per screen or form. */
export const datavPages = declareTable({
  name: 'datav_page',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(10)', notNull: true },
    pageName: { type: 'varchar(50)', notNull: true },
    width: { type: 'integer', notNull: true },
    height: { type: 'integer', notNull: true },
    /** null: the canvas falls back to the dark default #1D202D */
    backgroundColor: { type: 'varchar(30)' },
    refreshSeconds: { type: 'integer' },
    /** JSON text: the ruler's preset lines (an array) */
    presetLine: { type: 'text', notNull: true, default: '[]' },
    status: { type: 'integer', notNull: true, default: 0 },
    revision: { type: 'integer', notNull: true, default: 1 },
    createUser: { type: 'varchar(64)', notNull: true },
    ...timestamps,
  },
  indexes: [{ name: 'ix_datav_page_kind', columns: ['kind'] }],
});

/** The row of datav_page: as declared, its kind narrowed, and the columns 20261125_10_jimu_form_entry added. */
export interface DatavPageTable extends Omit<TableRow<typeof datavPages>, 'kind'> {
  kind: PageKind;
  /** forms: who may fill it in — 'login' (signed-in users, the default) or 'public' (anyone with the link) */
  fill_access: Generated<FillAccess>;
  /** forms: 1 while submissions are taken, 0 once closed */
  accepting: Generated<number>;
  /** the screen theme's id (issue 22 §2; widgets/charts/themes.ts); null: the default, 深蓝科技 */
  theme: string | null;
  /** an image over the background colour (the image kind's address rules); null: none */
  background_image: string | null;
  /** the screen's variables as JSON (issue 23 §1; common/variables.ts); null: none */
  variables: string | null;
  /** set when the page was deleted: it waits in the recycle bin, out of every list and call (issue 37) */
  deleted_time: string | null;
}

export type FillAccess = 'login' | 'public';

/** One row per submitted form. */
export const formEntries = declareTable({
  name: 'jimu_form_entry',
  columns: {
    id: { type: 'id' },
    formId: { type: 'integer', notNull: true },
    /** JSON text: { field: value } of the non-empty values, as validated */
    data: { type: 'text', notNull: true },
    /** JSON text: { field: label } of every field of the form at submit time */
    labels: { type: 'text', notNull: true },
    /** JSON text: { field: widgetName } at submit time (the kind of a field the form no longer has) */
    kinds: { type: 'text', notNull: true },
    /** JSON text: { field: text } — each value as it read at submit time (option labels, 是/否, a ~ b) */
    texts: { type: 'text', notNull: true },
    /** the values as one lower-cased text, what the entries search matches */
    searchText: { type: 'text', notNull: true },
    /** null for an anonymous submission to a public form */
    createUser: { type: 'varchar(64)' },
    createIp: { type: 'varchar(64)', notNull: true },
    createTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ix_jimu_form_entry_form', columns: ['formId', 'id'] }],
});
export type FormEntryTable = TableRow<typeof formEntries>;

/** An image stored by a fill-in's upload (not by the image list): the only images the sweep may remove. */
export interface FormUploadTable {
  file_image_id: number;
  form_id: number;
  create_time: string;
}

/** An image an entry names (written at submit, removed with the entry). */
export interface FormEntryImageTable {
  entry_id: number;
  file_image_id: number;
}

export interface DatavWidgetTable {
  id: string;
  page_id: number;
  /** stacking order: 0 = bottom */
  sort_no: number;
  widget_name: string;
  widget_title: string;
  icon: string;
  /** JSON text: { widgetViewName, widgetFormName, selectedTab, viewProps, versionProps, datasourceProps } */
  widget_props: string;
  create_time: string;
  update_time: string;
}

/** A screen's thumbnail (issue 22): the picture the designer took at its last save; one row a screen. */
export interface DatavThumbnailTable {
  page_id: number;
  /** image/png | image/jpeg | image/webp, as the content was checked */
  content_type: string;
  size: number;
  /** a hash of the picture: its ETag, and the list's `thumbnail` (what the browser's cache keys on) */
  etag: string;
  data: Buffer;
  update_user: string;
  update_time: string;
}

declare module '../../store/schema.js' {
  interface Database {
    datav_page: DatavPageTable;
    datav_widget: DatavWidgetTable;
    jimu_form_entry: TableRow<typeof formEntries>;
    jimu_form_upload: FormUploadTable;
    jimu_form_entry_image: FormEntryImageTable;
    datav_thumbnail: DatavThumbnailTable;
  }
}

export const datavMigrations = {
  '20261123_30_datav': migration(async (db, dialect) => {
    await datavPages.create(db, dialect);

    await db.schema
      .createTable('datav_widget')
      .ifNotExists()
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('page_id', 'integer', (c) => c.notNull())
      .addColumn('sort_no', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('widget_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('widget_title', 'varchar(100)', (c) => c.notNull())
      .addColumn('icon', 'varchar(64)', (c) => c.notNull())
      .addColumn('widget_props', 'text', (c) => c.notNull())
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .addColumn('update_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ix_datav_widget_page').ifNotExists().on('datav_widget').columns(['page_id', 'sort_no']).execute();
  }),
  // issue 11: forms that collect data — who may fill in a form, whether it takes submissions, its entries
  '20261125_10_jimu_form_entry': migration(async (db, dialect) => {
    await db.schema.alterTable('datav_page').addColumn('fill_access', 'varchar(10)', (c) => c.notNull().defaultTo('login')).execute();
    await db.schema.alterTable('datav_page').addColumn('accepting', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await formEntries.create(db, dialect);
  }),
  // which images fill-ins uploaded and which entries name them: what the hourly sweep may remove (formImages.ts)
  '20261125_20_jimu_form_image': migration(async (db) => {
    await db.schema
      .createTable('jimu_form_upload')
      .ifNotExists()
      .addColumn('file_image_id', 'integer', (c) => c.primaryKey())
      .addColumn('form_id', 'integer', (c) => c.notNull())
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await linkTable(db.schema.createTable('jimu_form_entry_image').ifNotExists(), 'pk_jimu_form_entry_image', ['entry_id', 'integer'], ['file_image_id', 'integer']).execute();
    await db.schema.createIndex('ix_jimu_form_entry_image_file').ifNotExists().on('jimu_form_entry_image').column('file_image_id').execute();
  }),
  // issue 22: each screen's thumbnail, the picture itself in the store (read with the list's permission only)
  '20261130_10_datav_thumbnail': migration(async (db, dialect) => {
    await db.schema
      .createTable('datav_thumbnail')
      .ifNotExists()
      .addColumn('page_id', 'integer', (c) => c.primaryKey())
      .addColumn('content_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('etag', 'varchar(64)', (c) => c.notNull())
      .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('update_user', 'varchar(64)', (c) => c.notNull())
      .addColumn('update_time', 'varchar(19)', (c) => c.notNull())
      .execute();
  }),
  // issue 22 §2: a page's screen theme and background image
  '20261125_40_datav_theme': migration(async (db) => {
    await db.schema.alterTable('datav_page').addColumn('theme', 'varchar(20)').execute();
    await db.schema.alterTable('datav_page').addColumn('background_image', 'varchar(2000)').execute();
  }),
  // issue 23 §1: a screen's variables (JSON, checked by common/variables.ts variablesFault)
  '20261201_10_datav_variables': migration(async (db) => {
    await db.schema.alterTable('datav_page').addColumn('variables', 'text').execute();
  }),
  // issue 37 §2: a deleted screen or form waits in the recycle bin, its widgets, thumbnail and entries kept
  '20261206_11_datav_page_deleted': migration(async (db) => {
    await db.schema.alterTable('datav_page').addColumn('deleted_time', 'varchar(19)').execute();
  }),
};
