// A user's view settings of the designers, remembered in this browser per user (localStorage): 网格吸附 on or
// off and its grid size. They are settings of the view, not of the screen, so they are never undo steps.
export interface GridPref {
  on: boolean;
  /** canvas px */
  size: number;
}

export const DEFAULT_GRID: GridPref = { on: false, size: 10 };
export const GRID_MIN = 2;
export const GRID_MAX = 200;

const key = (user: string | undefined) => `designer-grid:${user ?? ''}`;

export function loadGridPref(user: string | undefined): GridPref {
  try {
    const v = JSON.parse(localStorage.getItem(key(user)) ?? 'null') as Partial<GridPref> | null;
    if (!v || typeof v !== 'object') return DEFAULT_GRID;
    const size = typeof v.size === 'number' && Number.isFinite(v.size) ? Math.min(GRID_MAX, Math.max(GRID_MIN, Math.round(v.size))) : DEFAULT_GRID.size;
    return { on: v.on === true, size };
  } catch {
    return DEFAULT_GRID;
  }
}

export function saveGridPref(user: string | undefined, pref: GridPref): void {
  try {
    localStorage.setItem(key(user), JSON.stringify(pref));
  } catch {
    /* private mode or full: not remembered */
  }
}
