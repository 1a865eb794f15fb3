// The UI kit: layout pieces every screen may use (imports only runtime/core and antd).
export { SplitPane, type SplitPaneProps } from './SplitPane';
export { useNarrow, NARROW_QUERY } from './narrow';
