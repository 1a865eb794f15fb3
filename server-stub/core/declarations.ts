// Page declarations (schemas/pages/*.page.json) used on the server: the same field rules the dialog shows
// validate request bodies here, with the declared Chinese messages; search fields and sortable columns
// come from the declaration too, so a list never sorts or filters on a column that was not declared.
// Tables, their typed store and migrations are core/tables.ts (the declared-table service).
import { BizError } from './envelope.js';
import { safeRegExp } from './patterns.js';
import { declaredRulesOf, FORMATS, isEmptyValue, requiredMessageOf, valueFault, type DeclaredRule } from '../../common/dialog-rules.js';

/* ------------------------------------------------------------------ declarations */

export type PageDeclaration = any;

/** A declared field's rules, read by common/dialog-rules.ts (the browser's dialogs read them there too). */
export type FieldRule = DeclaredRule;

export { FORMATS };

/** A declared pattern, refused (as the caller's error, never a hang) when it could backtrack catastrophically. */
function declaredPattern(source: string): RegExp {
  try {
    return safeRegExp(source);
  } catch (err) {
    throw new BizError(`页面声明有误：${(err as Error).message}`);
  }
}

/** The field rules of a page's dialog, in declaration order; a pattern that is not safe refuses the page. */
export function fieldRulesOf(page: PageDeclaration): FieldRule[] {
  const rules = declaredRulesOf(page);
  for (const r of rules) for (const p of r.patterns) declaredPattern(p.source);
  return rules;
}

/** JSON Schema of a save body from the declaration: types (nullable), lengths, enums; extra properties allowed. */
export function bodySchemaOf(page: PageDeclaration, extra: Record<string, object> = {}): object {
  const properties: Record<string, object> = {};
  for (const r of fieldRulesOf(page)) {
    const p: Record<string, unknown> = { title: r.title };
    if (r.type && ['string', 'number', 'integer', 'boolean'].includes(r.type)) p.type = [r.type, 'null'];
    properties[r.field] = p;
  }
  return { type: 'object', properties: { ...properties, ...extra } };
}

export interface CheckOptions {
  /** dictionaries for x-dict values: the current ones (app.dicts.current()), not the shipped files */
  dicts?: Record<string, any>;
  /** apply dialog.defaults to absent fields (new records) */
  applyDefaults?: boolean;
  /** fields whose required check is skipped (e.g. a masked password on edit) */
  skipRequired?: string[];
}

/**
 * Validates a body against the page's declared fields; throws BizError with the declared message.
 * Returns the declared fields only (undeclared keys dropped), defaults applied when asked.
 */
export function checkBody(page: PageDeclaration, body: unknown, opts: CheckOptions = {}): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BizError('请求体必须是对象');
  const input = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = page?.dialog?.defaults ?? {};
  const env = {
    regExp: declaredPattern,
    dictValues: (dict: string) => {
      const items: any[] | undefined = opts.dicts?.[dict]?.items;
      return items ? dictValues(items) : undefined;
    },
  };
  for (const r of fieldRulesOf(page)) {
    let v = input[r.field];
    if (isEmptyValue(v) && opts.applyDefaults && defaults[r.field] !== undefined) v = defaults[r.field];
    if (isEmptyValue(v)) {
      if (r.required && !opts.skipRequired?.includes(r.field)) throw new BizError(requiredMessageOf(r));
      if (v !== undefined) out[r.field] = v === '' && r.type !== 'string' ? null : v;
      continue;
    }
    const fault = valueFault(r, v, env);
    if (fault) throw new BizError(fault);
    out[r.field] = v;
  }
  return out;
}

function dictValues(items: any[]): unknown[] {
  return items.flatMap((i) => [i.value, ...(Array.isArray(i.children) ? dictValues(i.children) : [])]);
}

/** Fields the server searches (fuzzy) for a page. */
export function searchFieldsOf(page: PageDeclaration): string[] {
  return Array.isArray(page?.search?.fields) ? page.search.fields.filter((f: unknown) => typeof f === 'string') : [];
}

/**
 * Fields a list may be filtered by, as the page declares them: a column's filter (its filterField or field), the
 * fixed query parameters, the side tree's parameter. Nothing else: a column left off the page cannot be probed
 * through its filter (issue 34).
 */
export function filterFieldsOf(page: PageDeclaration): string[] {
  const out = new Set<string>();
  for (const c of page?.columns ?? []) if (c?.filter && typeof (c.filterField ?? c.field) === 'string') out.add(c.filterField ?? c.field);
  for (const k of Object.keys(page?.query ?? {})) out.add(k);
  if (typeof page?.sideTree?.param === 'string') out.add(page.sideTree.param);
  return [...out];
}

/** Fields a list may be ordered by (columns declared sortable). */
export function sortableFieldsOf(page: PageDeclaration): string[] {
  return (page?.columns ?? []).filter((c: any) => c.sortable && typeof c.field === 'string').map((c: any) => c.field);
}

/** A page declaration by id, or an error at start (a module must not run without its declaration). */
export function requirePage(pages: Record<string, PageDeclaration>, id: string): PageDeclaration {
  const p = pages[id];
  if (!p) throw new Error(`缺少页面声明 schemas/pages/${id}.page.json`);
  return p;
}

/* ------------------------------------------------------------------ small helpers of every store */

export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Is this a unique-constraint violation (SQLite or PostgreSQL)? */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/** JSON schema of `?id=` query strings. */
/** A body field holding a row id (or nothing): an integer within the store's id range, named for messages. */
export function optionalId(title: string, minimum = 1) {
  return { type: ['integer', 'null'], minimum, maximum: 2147483647, title } as const;
}

export const idQuery = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' } },
} as const;
