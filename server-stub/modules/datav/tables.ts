// The tables of the screen (大屏) and form (表单) designers (spec part 2 §3 "Screen or form page", "Widget"),
// and their migration. Screens and forms share both tables; `kind` tells them apart.
//
//  datav_page    one row per screen or form: canvas size, background, refresh, ruler lines, and a revision
//                that every successful save bumps (a save carrying an older revision is refused)
//  datav_widget  the widgets placed on a page, in stacking order (sort_no 0 = bottom); the id is the
//                browser's (a uuid: copies, pastes and undo-restores are created locally)
import type { Generated } from 'kysely';
import { migration } from '../../core/declarations.js';
import { idColumn } from '../../store/columns.js';

export type PageKind = 'screen' | 'form';

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
  create_user: string;
  create_time: string;
  update_time: string;
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
};
