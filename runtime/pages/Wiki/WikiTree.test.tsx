import { fireEvent, render, screen } from '@testing-library/react';
import { WikiTree } from './WikiTree';
import type { WikiNode } from './api';

const nodes: WikiNode[] = [
  { id: 1, parentId: 0, title: '接口约定', docType: 0 },
  { id: 2, parentId: 1, title: '分页参数', docType: 1 },
  { id: 3, parentId: 0, title: '运维手册', docType: 0 },
  { id: 4, parentId: 3, title: '日志轮转', docType: 1 },
];
const noop = () => undefined;
const tree = (selected: number | null = null) => (
  <WikiTree nodes={nodes} selected={selected} onSelect={noop} canEdit={false} onAddGroup={noop} onAddDoc={noop} onRenameGroup={noop} onDeleteGroup={noop} />
);

describe('WikiTree', () => {
  beforeEach(() => localStorage.clear());

  it('remembers the groups the reader opened: a tree drawn anew (a reload, a save) keeps them open', () => {
    const first = render(tree());
    expect(screen.queryByText('日志轮转')).toBeNull();
    const group = screen.getByText('运维手册').closest('.ant-tree-treenode')!;
    fireEvent.click(group.querySelector('.ant-tree-switcher')!);
    expect(screen.getByText('日志轮转')).toBeInTheDocument();
    first.unmount();
    // a new tree opening another document's group keeps the one opened before
    render(tree(2));
    expect(screen.getByText('日志轮转')).toBeInTheDocument();
    expect(screen.getByText('分页参数')).toBeInTheDocument();
  });
});
