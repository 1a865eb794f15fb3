// Options a dialog field reads from a call (`x-options` in the declaration): a remote select's items, a tree's nodes.
import { useEffect, useState } from 'react';
import { useCrudServices } from '../services';
import { fillParams, parseCall } from '../template';
import { buildTree } from '../../ui/tree';

/** `x-options`: the call and which fields of its items are the label, the value, and (flat rows) the parent. */
export interface OptionsDecl {
  api: string;
  params?: Record<string, unknown>;
  /** the label's field (default label, else title, else name) */
  label?: string;
  /** the value's field (default value, else key, else id) */
  value?: string;
  /** the answer is flat rows: nested by this field (0 / null: top level) */
  parentField?: string;
  /** items whose this field is true are shown but cannot be chosen (e.g. a department above the caller's scope) */
  disabledField?: string;
  /**
   * parameters taken from other fields of the form (parameter → field), asked again when they change: a job's
   * targets by its kind. No {{…}} templates: in a dialog those are Formily's expressions.
   */
  fields?: Record<string, string>;
}

/** The declaration with its `fields` filled in from the form's values (nothing to fill: the declaration itself). */
export function withFormFields(decl: OptionsDecl | undefined, values: Record<string, unknown> | undefined): OptionsDecl | undefined {
  if (!decl?.fields) return decl;
  const params: Record<string, unknown> = { ...(decl.params ?? {}) };
  for (const [name, field] of Object.entries(decl.fields)) params[name] = values?.[field] ?? '';
  return { ...decl, params, fields: undefined };
}

export type OptionKey = string | number;
export interface OptionNode {
  value: OptionKey;
  label: string;
  disabled?: boolean;
  children?: OptionNode[];
}

type Item = Record<string, unknown>;
const first = (it: Item, declared: string | undefined, fallbacks: string[]) => (declared ? it[declared] : it[fallbacks.find((f) => it[f] !== undefined && it[f] !== null) ?? fallbacks[0]]);

/** The answer (a list, or `{ records }`) as option nodes. */
export function toOptionNodes(answer: unknown, decl: Omit<OptionsDecl, 'api'>): OptionNode[] {
  const list = (Array.isArray(answer) ? answer : ((answer as { records?: unknown[] } | null)?.records ?? [])) as Item[];
  const one = (it: Item): OptionNode => {
    const raw = first(it, decl.value, ['value', 'key', 'id']);
    const kids = Array.isArray(it.children) ? (it.children as Item[]).map(one) : undefined;
    return {
      value: typeof raw === 'number' ? raw : String(raw ?? ''),
      label: String(first(it, decl.label, ['label', 'title', 'name']) ?? ''),
      ...(decl.disabledField && it[decl.disabledField] ? { disabled: true } : {}),
      ...(kids?.length ? { children: kids } : {}),
    };
  };
  if (!decl.parentField) return list.filter((it) => it && typeof it === 'object').map(one);
  const valueField = decl.value ?? 'id';
  const walk = (nodes: ReturnType<typeof buildTree>): OptionNode[] =>
    nodes.map((n) => ({ ...one({ ...n.row, children: undefined }), ...(n.children.length ? { children: walk(n.children) } : {}) }));
  return walk(buildTree(list, { idField: valueField, parentField: decl.parentField }));
}

export interface RemoteOptions { loading: boolean; error: boolean; nodes: OptionNode[] }

/** Asks once per mounted field (a dialog mounts per opening, so an opening shows what the server has now). */
export function useRemoteOptions(decl: OptionsDecl | undefined): RemoteOptions {
  const services = useCrudServices();
  const [state, setState] = useState<RemoteOptions>({ loading: !!decl, error: false, nodes: [] });
  const key = JSON.stringify(decl ?? null);
  useEffect(() => {
    const d = JSON.parse(key) as OptionsDecl | null;
    if (!d?.api) return;
    let live = true;
    const { method, path } = parseCall(d.api);
    const params = fillParams(d.params, {});
    setState((s) => ({ ...s, loading: true, error: false }));
    services
      .request<unknown>(method, path, method === 'GET' ? { params } : { body: params })
      .then((answer) => live && setState({ loading: false, error: false, nodes: toOptionNodes(answer, d) }))
      .catch(() => live && setState({ loading: false, error: true, nodes: [] }));
    return () => {
      live = false;
    };
  }, [key, services]);
  return state;
}

/** Every node's value, depth first. */
export function allValues(nodes: OptionNode[]): OptionKey[] {
  return nodes.flatMap((n) => [n.value, ...allValues(n.children ?? [])]);
}
