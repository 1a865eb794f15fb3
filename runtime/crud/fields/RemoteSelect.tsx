// Selects whose options come from a call (`x-options` on a Select or TreeSelect field), e.g. the roles a user
// holds. The column filter with a remote search is RemoteFilter; dictionaries are DictSelect.
import { useMemo } from 'react';
import { Select, Spin, TreeSelect } from 'antd';
import type { SelectProps, TreeSelectProps } from 'antd';
import { observer, useForm } from '@formily/react';
import { useRemoteOptions, withFormFields, type OptionNode, type OptionsDecl } from './remoteOptions';

const flat = (nodes: OptionNode[]): OptionNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
const treeData = (nodes: OptionNode[]): NonNullable<TreeSelectProps['treeData']> =>
  nodes.map((n) => ({ value: n.value, title: n.label, ...(n.disabled ? { disabled: true } : {}), ...(n.children ? { children: treeData(n.children) } : {}) }));

function status(loading: boolean, error: boolean) {
  return loading ? <Spin size="small" /> : error ? '加载失败' : '暂无数据';
}

/** A Select (one value, or `mode: "multiple"`) over the call's items, searchable by label. */
export const RemoteSelect = observer(function RemoteSelect({ source, ...rest }: SelectProps & { source?: OptionsDecl }) {
  const form = useForm();
  const { loading, error, nodes } = useRemoteOptions(withFormFields(source, form?.values as Record<string, unknown> | undefined));
  const options = useMemo(() => flat(nodes).map((n) => ({ value: n.value, label: n.label, ...(n.disabled ? { disabled: true } : {}) })), [nodes]);
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="请选择"
      {...rest}
      loading={loading}
      notFoundContent={status(loading, error)}
      options={options}
    />
  );
});

/** A TreeSelect over the call's nodes (or flat rows nested by `parentField`), e.g. a menu's parent. */
export const RemoteTreeSelect = observer(function RemoteTreeSelect({ source, ...rest }: TreeSelectProps & { source?: OptionsDecl }) {
  const form = useForm();
  const { loading, error, nodes } = useRemoteOptions(withFormFields(source, form?.values as Record<string, unknown> | undefined));
  const data = useMemo(() => treeData(nodes), [nodes]);
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      placeholder="请选择"
      {...rest}
      loading={loading}
      notFoundContent={status(loading, error)}
      treeData={data}
    />
  );
});
