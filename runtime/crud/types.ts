// Local mirror of schemas/meta/page.schema.json until `npm run gen:types`
// writes schemas/generated/; keep the two in step.

/** "GET /path" or "POST /path" relative to /api; `{field}` in the path is filled from the row. */
export type Call = string;

export type ColumnFormat = 'datetime' | 'date' | 'yesno' | 'password' | 'filesize' | 'version' | 'userAccount';

export interface ColumnDecl {
  title: string;
  field?: string;
  type?: 'index' | 'selection' | 'text' | 'image' | 'actions';
  width?: number;
  ellipsis?: boolean;
  dict?: string;
  format?: ColumnFormat;
  sortable?: boolean;
  filter?: 'dict' | 'remote';
  filterField?: string;
  filterApi?: Call;
  link?: string;
  /** type=image: the row field used as the image's alternative text (default: the column title). */
  altField?: string;
}

export type ActionKind = 'add' | 'edit' | 'copy' | 'delete' | 'test' | 'call' | 'route' | 'notice';

export interface ActionDecl {
  action: ActionKind;
  label?: string;
  api?: Call;
  params?: Record<string, string | number | boolean>;
  body?: 'row' | 'ids' | 'none';
  refresh?: boolean;
  confirm?: string;
  success?: string;
  failure?: string;
  to?: string;
  newTab?: boolean;
  perms?: string[];
  danger?: boolean;
  primary?: boolean;
  message?: string;
}

export interface DialogTestDecl {
  api: Call;
  label?: string;
  send?: 'form' | 'id';
  success?: string;
  failure?: string;
}

export interface UploadDecl {
  api?: Call;
  accept?: string;
  limit?: number;
  maxSizeMB?: number;
  field?: string;
}

/** A Formily JSON Schema node; only the keys the renderer reads are typed. */
export interface FieldSchema {
  type?: string;
  title?: string;
  required?: boolean | string[];
  maxLength?: number;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, FieldSchema>;
  'x-component'?: string;
  'x-component-props'?: Record<string, unknown>;
  'x-decorator'?: string;
  'x-decorator-props'?: Record<string, unknown>;
  'x-validator'?: unknown;
  'x-dict'?: string;
  'x-disabled'?: boolean;
  [key: string]: unknown;
}

export interface DialogDecl {
  width?: number;
  titles?: { new?: string; copy?: string; edit?: string };
  lockedInEdit?: string[];
  clearInCopy?: string[];
  defaults?: Record<string, unknown>;
  kind?: 'form' | 'upload';
  upload?: UploadDecl;
  test?: DialogTestDecl;
  schema: { type: 'object'; properties: Record<string, FieldSchema>; [key: string]: unknown };
}

export interface PageDeclaration {
  $schema?: string;
  id: string;
  title: string;
  description?: string;
  showTitle?: boolean;
  rowKey?: string;
  nameField?: string;
  perms?: { list?: string; add?: string; edit?: string; remove?: string };
  api?: { search: Call; get?: Call; add?: Call; save?: Call; delete?: Call };
  search?: { field?: string; placeholder?: string; maxLength?: number; fields?: string[] };
  query?: Record<string, unknown>;
  pageSizes?: number[];
  pageSize?: number;
  selectable?: boolean;
  columns: ColumnDecl[];
  toolbar?: ActionDecl[];
  rowActions?: ActionDecl[];
  dialog?: DialogDecl;
}

export type Row = Record<string, unknown>;
export type DialogMode = 'new' | 'copy' | 'edit';
export interface ListResult { records: Row[]; total: number }
