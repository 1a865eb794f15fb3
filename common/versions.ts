// What browser and server agree on about versions of designed items (issue 37): the kinds, and a version as the
// history routes answer it (server-stub/core/versions.ts; runtime/ui/history/HistoryDrawer.tsx).

/** The kinds of designed items that keep versions. */
export type VersionKind = 'page' | 'screen' | 'form' | 'menu' | 'dataset';

/** One version, without its content. */
export interface VersionRow {
  id: number;
  kind: VersionKind;
  itemKey: string;
  title: string | null;
  note: string | null;
  published: boolean;
  size: number;
  createUser: string | null;
  createTime: string;
  /** 1 = the item's first kept version */
  number: number;
}
