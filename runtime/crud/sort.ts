// Sorting cycles ascending → descending → none (spec §4); antd's sorter already
// cycles that way with sortDirections ['ascend','descend'], we only translate it.
export type SortOrder = 'ascend' | 'descend' | null;
export interface SortState { field?: string; order: SortOrder }

export function nextOrder(order: SortOrder): SortOrder {
  return order === null ? 'ascend' : order === 'ascend' ? 'descend' : null;
}

/** The list-query keys the server expects. */
export function sortToQuery(s: SortState): { orderByColumn?: string; isAsc?: 'ascending' | 'descending' } {
  if (!s.field || !s.order) return {};
  return { orderByColumn: s.field, isAsc: s.order === 'ascend' ? 'ascending' : 'descending' };
}
