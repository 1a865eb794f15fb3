// A list (or tree) beside what it selects: the Wiki's tree, the saved queries, the page manager's pages, a list
// page's side tree. On a wide screen both stand side by side exactly as the page lays them out (`style`); on a
// phone (below 768 px) the side pane moves into a drawer opened by a button above the content, and the drawer
// closes again once something is picked in it.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Button, Drawer } from 'antd';
import { MenuUnfoldOutlined } from '@ant-design/icons';
import { useNarrow } from './narrow';
import './ui.css';

export interface SplitPaneProps {
  /** the list or tree (it keeps its own width on a wide screen; in the drawer it takes the drawer's); none: no button */
  side: ReactNode;
  /** names the side pane: the phone's button and the drawer's title */
  sideTitle: string;
  /** the drawer's width in px (never wider than 85 % of the screen) */
  drawerWidth?: number;
  /** what picking in the side pane changes (an id, a key): when it changes, the phone's drawer closes */
  selection?: unknown;
  /** the wide layout: side and content are this element's two children */
  style?: CSSProperties;
  className?: string;
  /** the content (on a wide screen it sizes itself beside the side pane, e.g. flex: 1, minWidth: 0) */
  children: ReactNode;
}

export function SplitPane({ side, sideTitle, drawerWidth = 300, selection, style, className, children }: SplitPaneProps) {
  const narrow = useNarrow();
  const [open, setOpen] = useState(false);
  const last = useRef(selection);
  useEffect(() => {
    if (Object.is(last.current, selection)) return;
    last.current = selection;
    setOpen(false);
  }, [selection]);

  if (!narrow || !side) {
    return (
      <div className={className} style={style}>
        {side}
        {children}
      </div>
    );
  }
  return (
    <div className={`split-pane-narrow ${className ?? ''}`}>
      <Button className="split-pane-open" icon={<MenuUnfoldOutlined />} onClick={() => setOpen(true)} data-testid="split-pane-open">
        {sideTitle}
      </Button>
      {children}
      <Drawer
        title={sideTitle}
        placement="left"
        open={open}
        onClose={() => setOpen(false)}
        width={`min(${drawerWidth}px, 85vw)`}
        rootClassName="split-pane-drawer"
        styles={{ body: { padding: 12 } }}
      >
        {side}
      </Drawer>
    </div>
  );
}
