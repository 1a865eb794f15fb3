// The declaration types come from schemas/meta/page.schema.json through `npm run gen:types`
// (schemas/generated/page.ts). Only the dialog's Formily field schema, which the meta-schema leaves open,
// is typed here with the keys the renderer reads.
import type * as Gen from '../../schemas/generated/page';

/** "GET /path" or "POST /path" relative to /api; `{field}` in the path is filled from the row. */
export type Call = Gen.Call;
export type ColumnDecl = Gen.Column;
export type ColumnFormat = NonNullable<ColumnDecl['format']>;
export type ActionDecl = Gen.Action;
export type ActionKind = ActionDecl['action'];
type GenDialog = NonNullable<Gen.PageDeclaration['dialog']>;
export type DialogTestDecl = NonNullable<GenDialog['test']>;
export type SideTreeDecl = Gen.SideTree;
export type UploadDecl = NonNullable<GenDialog['upload']>;

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
  /** options from a call (fields/remoteOptions.ts) */
  'x-explain'?: { api: string; param: string; fields?: Record<string, string> };
  'x-options'?: { api: string; params?: Record<string, unknown>; label?: string; value?: string; parentField?: string; disabledField?: string };
  'x-disabled'?: boolean;
  [key: string]: unknown;
}

export type DialogDecl = Omit<GenDialog, 'schema' | 'defaults'> & {
  defaults?: Record<string, unknown>;
  schema: { type: 'object'; properties: Record<string, FieldSchema>; [key: string]: unknown };
};

export type PageDeclaration = Omit<Gen.PageDeclaration, 'dialog' | 'query'> & {
  query?: Record<string, unknown>;
  dialog?: DialogDecl;
};

export type Row = Record<string, unknown>;
export type DialogMode = 'new' | 'copy' | 'edit';
/**
 * A list call's answer. `totalEstimated`: `total` is the server's estimate (the pager says 约 … 条（估算）);
 * `next` / `cursor`: a keyset hint for the following page, sent back as `after` when the user moves one page on.
 */
export interface ListResult { records: Row[]; total: number; totalEstimated?: boolean; next?: string | number; cursor?: string | number }
