// The tables of the screen (大屏) and form (表单) designers (spec part 2 §3 "Screen or form page", "Widget"),
// and their migration. Screens and forms share both tables; `kind` tells them apart.
//
//  datav_page    one row per screen or form: canvas size, background, refresh, ruler lines, and a revision
//                that every successful save bumps (a save carrying an older revision is refused)
//  datav_widget  the widgets placed on a page, in stacking order (sort_no 0 = bottom); the id is the
//                browser's (a uuid: copies, pastes and undo-restores are created locally)
//  jimu_form_entry  one row per submitted form (issue 11): the values, and the field labels and kinds
//                as they were at submit time, so an entry stays readable after its form changes
import type { Generated } from 'kysely';
import { migration } from '../../core/tables.js';
import { idColumn } from '../../store/columns.js';
import type { PageKind } from '../../../common/widgets.js';

export type { PageKind } from '../../../common/widgets.js';

export interface DatavPageTable {
  id: Generated<number>;
  kind: PageKind;
  page_name: string;
  width: number;
  height: number;
  /** null: the canvas falls back to the dark default #1D202D */
  background_color: string | null;
  refresh_seconds: number | null;
  /** JSON text: the ruler's preset lines (an array) */
  preset_line: string;
  status: number;
  revision: number;
  /** forms: who may fill it in — 'login' (signed-in users, the default) or 'public' (anyone with the link) */
  fill_access: Generated<FillAccess>;
  /** forms: 1 while submissions are taken, 0 once closed */
  accepting: Generated<number>;
  create_user: string;
  create_time: string;
  update_time: string;
}

export type FillAccess = 'login' | 'public';

export interface FormEntryTable {
  id: Generated<number>;
  form_id: number;
  /** JSON text: { field: value } of the non-empty values, as validated */
  data: string;
  /** JSON text: { field: label } of every field of the form at submit time */
  labels: string;
  /** JSON text: { field: widgetName } at submit time (the kind of a field the form no longer has) */
  kinds: string;
  /** JSON text: { field: text } — each value as it read at submit time (option labels, 是/否, a ~ b) */
  texts: string;
  /** the values as one lower-cased text, what the entries search matches */
  search_text: string;
  /** null for an anonymous submission to a public form */
  create_user: string | null;
  create_ip: string;
  create_time: string;
}

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

declare module '../../store/schema.js' {
  interface Database {
    datav_page: DatavPageTable;
    datav_widget: DatavWidgetTable;
    jimu_form_entry: FormEntryTable;
    jimu_form_upload: FormUploadTable;
    jimu_form_entry_image: FormEntryImageTable;
  }
}

export const datavMigrations = {
  '20261123_30_datav': migration(async (db, dialect) => {
    await idColumn(db.schema.createTable('datav_page').ifNotExists(), dialect)
      .addColumn('kind', 'varchar(10)', (c) => c.notNull())
      .addColumn('page_name', 'varchar(50)', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('background_color', 'varchar(30)')
      .addColumn('refresh_seconds', 'integer')
      .addColumn('preset_line', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('create_user', 'varchar(64)', (c) => c.notNull())
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .addColumn('update_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ix_datav_page_kind').ifNotExists().on('datav_page').column('kind').execute();

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
    await idColumn(db.schema.createTable('jimu_form_entry').ifNotExists(), dialect)
      .addColumn('form_id', 'integer', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('kinds', 'text', (c) => c.notNull())
      .addColumn('texts', 'text', (c) => c.notNull())
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('create_user', 'varchar(64)')
      .addColumn('create_ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ix_jimu_form_entry_form').ifNotExists().on('jimu_form_entry').columns(['form_id', 'id']).execute();
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
    await db.schema
      .createTable('jimu_form_entry_image')
      .ifNotExists()
      .addColumn('entry_id', 'integer', (c) => c.notNull())
      .addColumn('file_image_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('pk_jimu_form_entry_image', ['entry_id', 'file_image_id'])
      .execute();
    await db.schema.createIndex('ix_jimu_form_entry_image_file').ifNotExists().on('jimu_form_entry_image').column('file_image_id').execute();
  }),
};
