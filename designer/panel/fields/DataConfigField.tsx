import type { FieldProps } from '@rjsf/utils';
import { Alert, Button, Select, Space, Typography } from 'antd';
import { PanelItem } from './PanelItem';
import { useEffect, useState } from 'react';
import type { DataConfig, DataMappingItem, DataRow } from '../../../widgets';
import { DatasetConfigPanel } from './DatasetConfig';
import { JsonEditor } from '../editor/JsonEditor';
import type { ApiOption, PanelContext } from '../services';
import { StaticDataEditor } from './StaticDataEditor';
import { toJsonText, useJsonText } from './useJsonText';
import { bindingOf, initialValues, resolveParams, type ScreenVariable } from '../../../common/variables';
import { variableOption } from '../widgets/VariableWidget';

/**
 * datasourceProps.dataConfig: STATIC rows, an API with its request parameters (spec "Widget data source tab"), or a
 * dataset (issue 35). Which one follows the sibling datasourceType.
 */
export function DataConfigField({ formData, onChange, fieldPathId, registry, uiSchema }: FieldProps<DataConfig>) {
  const ctx = registry.formContext as PanelContext;
  const root = (ctx?.rootData ?? {}) as { datasourceType?: string; dataMapping?: DataMappingItem[] };
  const value: DataConfig = formData ?? {};
  const height = Number(uiSchema?.['ui:options']?.height ?? 300);
  const set = (patch: Partial<DataConfig>) => onChange({ ...value, ...patch }, fieldPathId.path);

  if (root.datasourceType === 'API') return <ApiConfig value={value} set={set} ctx={ctx} />;
  if (root.datasourceType === 'DATASET') return <DatasetConfigPanel value={value} set={set} ctx={ctx} mapping={root.dataMapping ?? []} />;
  return (
    <PanelItem label="静态数据">
      <StaticDataEditor value={Array.isArray(value.data) ? value.data : NO_ROWS} onChange={(data) => set({ data })} height={height} />
    </PanelItem>
  );
}

const NO_ROWS: DataRow[] = [];
// A stable empty object: the JSON text state resets whenever its value's identity changes.
const NO_PARAMS: Record<string, unknown> = {};
const NO_VARIABLES: readonly ScreenVariable[] = [];
const CONSTANT = '';

/** The API's declared request parameters with their default values (its reqParams JSON text), or none. */
function declaredParams(api: ApiOption | undefined): Record<string, unknown> {
  try {
    const v: unknown = api?.reqParams ? JSON.parse(api.reqParams) : null;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : NO_PARAMS;
  } catch {
    return NO_PARAMS;
  }
}

/**
 * 参数绑定 (issue 23 §1, §6): each request parameter is a constant (its value in the JSON above) or bound to one of
 * the canvas's variables, chosen here instead of typing `{{name}}`; back to 常量 restores the API's declared
 * default. Shown when the canvas declares variables or a parameter is already bound.
 */
function ParamBindings({ reqParams, variables, declared, onChange }: { reqParams: Record<string, unknown>; variables: readonly ScreenVariable[]; declared: Record<string, unknown>; onChange: (p: Record<string, unknown>) => void }) {
  const names = Object.keys(reqParams);
  const bound = names.map((n) => bindingOf(reqParams[n]));
  if (names.length === 0 || (variables.length === 0 && bound.every((b) => !b))) return null;
  const options = [{ value: CONSTANT, label: '常量' }, ...variables.map(variableOption)];
  return (
    <PanelItem label="参数绑定" help={variables.length ? '参数取常量，或绑定画布变量：变量变化时本部件重新取数' : '画布尚未声明变量（画布属性 → 变量）'}>
      <div data-testid="param-bindings" style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)', gap: 6, alignItems: 'center' }}>
        {names.map((name, i) => {
          const variable = bound[i];
          const missing = variable && !variables.some((v) => v.name === variable);
          return [
            <Typography.Text key={`${name}:n`} ellipsis title={name}>
              {name}
            </Typography.Text>,
            <Select
              key={`${name}:v`}
              size="small"
              aria-label={`参数 ${name} 的取值`}
              value={variable ?? CONSTANT}
              status={missing ? 'warning' : undefined}
              options={missing ? [...options, { value: variable, label: `${variable}（未声明）` }] : options}
              onChange={(next: string) =>
                onChange({ ...reqParams, [name]: next === CONSTANT ? (bindingOf(declared[name]) ? '' : (declared[name] ?? '')) : `{{${next}}}` })
              }
            />,
          ];
        })}
      </div>
    </PanelItem>
  );
}

function ApiConfig({ value, set, ctx }: { value: DataConfig; set: (p: Partial<DataConfig>) => void; ctx: PanelContext }) {
  const { listApis, fetchApiData, variables = NO_VARIABLES } = ctx?.services ?? {};
  const [search, setSearch] = useState('');
  const [apis, setApis] = useState<ApiOption[]>([]);
  const [loading, setLoading] = useState(false);
  const [result, setResult] = useState<{ rows?: DataRow[]; error?: string } | null>(null);
  const params = useJsonText(value.reqParams ?? NO_PARAMS, (reqParams) => set({ reqParams }), (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? null : '请求参数必须是 JSON 对象',
  );

  useEffect(() => {
    if (!listApis) return;
    let alive = true;
    setLoading(true);
    listApis(search).then(
      (list) => alive && (setApis(list), setLoading(false)),
      () => alive && (setApis([]), setLoading(false)),
    );
    return () => {
      alive = false;
    };
  }, [listApis, search]);

  const choose = (apiName: string) => {
    const api = apis.find((a) => a.apiName === apiName);
    let reqParams = value.reqParams;
    try {
      if (api?.reqParams) reqParams = JSON.parse(api.reqParams);
    } catch {
      // a malformed reqParams text from the server leaves the current params alone
    }
    set({ datasource: apiName, datasourceLabel: api?.apiComment ?? apiName, reqParams });
  };

  const viewResult = async () => {
    if (!fetchApiData || !value.datasource) return;
    try {
      // a parameter bound to a variable is sent with the variable's default, as a preview opened without URL
      // parameters would send it (no default: left out)
      const rows = await fetchApiData({ datasource: value.datasource, reqParams: resolveParams(value.reqParams ?? {}, initialValues(variables)) });
      setResult({ rows });
      set({ data: rows });
    } catch (e) {
      setResult({ error: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <>
      <PanelItem label="接口">
        <Select
          showSearch
          allowClear
          aria-label="接口"
          value={value.datasource || undefined}
          placeholder={listApis ? '请选择接口' : '接口列表尚未接入'}
          disabled={!listApis}
          loading={loading}
          filterOption={false}
          onSearch={setSearch}
          onChange={(v) => (v ? choose(v) : set({ datasource: '', datasourceLabel: '' }))}
          options={[
            ...apis.map((a) => ({ value: a.apiName, label: a.apiComment ? `${a.apiComment}（${a.apiName}）` : a.apiName })),
            // keep the saved choice visible even before the list loads
            ...(value.datasource && !apis.some((a) => a.apiName === value.datasource) ? [{ value: value.datasource, label: value.datasourceLabel || value.datasource }] : []),
          ]}
        />
      </PanelItem>
      <PanelItem label="请求参数" validateStatus={params.error ? 'error' : undefined} help={params.error || undefined}>
        <JsonEditor value={params.text} onChange={params.onText} height={120} ariaLabel="请求参数" />
      </PanelItem>
      <ParamBindings
        reqParams={value.reqParams ?? NO_PARAMS}
        variables={variables}
        declared={declaredParams(apis.find((a) => a.apiName === value.datasource))}
        onChange={(reqParams) => set({ reqParams })}
      />
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button onClick={viewResult} disabled={!fetchApiData || !value.datasource}>
          查看结果
        </Button>
        {!fetchApiData && <Typography.Text type="secondary">接口调用尚未接入，暂不能查看结果</Typography.Text>}
        {result?.error && <Alert type="error" showIcon message={`接口调用失败：${result.error}`} />}
        {result?.rows && <JsonEditor value={toJsonText(result.rows)} readOnly height={160} ariaLabel="返回结果" />}
      </Space>
    </>
  );
}
