// The parameter table of the query-support screen and the API configuration screen: rows of
// name, type (REQ_PARAM_TYPE), value and comment, edited in place, or as a JSON object of
// name → value whose edits flow back into the rows (and the rows' edits rewrite the JSON).
import { useMemo, useState } from 'react';
import { Button, Checkbox, Input, Segmented, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useDict } from '../core/dicts';
import { CodeEditor } from '../ui/CodeEditor';

export interface ParamRow {
  paramName: string;
  paramType: string;
  paramValue?: string;
  paramComment?: string;
  /** API request parameters: a call without it is refused (400 缺少必填参数：name) */
  required?: boolean;
  /** API request parameters: a secret — its value is never shown in a query plan or to the approver */
  secret?: boolean;
}

export interface ParamTableProps {
  value?: ParamRow[];
  onChange?: (rows: ParamRow[]) => void;
  readOnly?: boolean;
  /** show the comment column (API parameters carry one) */
  withComment?: boolean;
  /** offer the JSON view of the values beside the table */
  withJson?: boolean;
  /** the dictionary that lists the types */
  typeDict?: string;
  /** API request parameters: a 必填 column, and the value is the default of a call that leaves it out */
  withRequired?: boolean;
  /** a 敏感 column (API request parameters: the value is masked in plans and on the approval screen) */
  withSecret?: boolean;
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What is wrong with each row's name, as it is typed (duplicates are flagged on every row that has the name). */
export function nameFaults(rows: ParamRow[]): Array<string | null> {
  const seen = new Map<string, number>();
  for (const r of rows) if (r.paramName) seen.set(r.paramName, (seen.get(r.paramName) ?? 0) + 1);
  return rows.map((r) => {
    if (!r.paramName) return null;
    if (!NAME_RE.test(r.paramName)) return '只能包含字母、数字和下划线，且不能以数字开头';
    return (seen.get(r.paramName) ?? 0) > 1 ? `参数名【${r.paramName}】重复` : null;
  });
}

/** name → typed sample value, as a request body would carry it. */
export function valuesOf(rows: ParamRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    if (!r.paramName) continue;
    const v = r.paramValue ?? '';
    if ((r.paramType === 'integer' || r.paramType === 'number') && v !== '' && Number.isFinite(Number(v))) out[r.paramName] = Number(v);
    else if (r.paramType === 'boolean' && (v === 'true' || v === 'false')) out[r.paramName] = v === 'true';
    else out[r.paramName] = v;
  }
  return out;
}

function typeOf(v: unknown): string {
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return 'string';
}

/** The rows after the JSON text was edited: values updated, new names added, missing names dropped. */
export function mergeJson(rows: ParamRow[], text: string): ParamRow[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text || '{}');
  } catch {
    return '不是合法的 JSON';
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'JSON 必须是对象（参数名 → 值）';
  const entries = Object.entries(parsed as Record<string, unknown>);
  const bad = entries.find(([k]) => !NAME_RE.test(k));
  if (bad) return `参数名不合法：${bad[0]}`;
  return entries.map(([name, v]) => {
    const old = rows.find((r) => r.paramName === name);
    const value = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return { paramName: name, paramType: old?.paramType ?? typeOf(v), paramValue: value, paramComment: old?.paramComment ?? '', ...(old?.required ? { required: true } : {}), ...(old?.secret ? { secret: true } : {}) };
  });
}

export function ParamTable({ value = [], onChange, readOnly, withComment, withJson, withRequired, withSecret, typeDict = 'REQ_PARAM_TYPE' }: ParamTableProps) {
  const types = useDict(typeDict);
  const [mode, setMode] = useState<'table' | 'json'>('table');
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [jsonFault, setJsonFault] = useState<string | null>(null);
  const rows = value;
  const update = (i: number, patch: Partial<ParamRow>) => onChange?.(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const shownJson = jsonText ?? JSON.stringify(valuesOf(rows), null, 2);
  const faults = nameFaults(rows);

  const columns = useMemo(
    () => [
      {
        title: '参数名',
        dataIndex: 'paramName',
        width: '24%',
        render: (v: string, _r: ParamRow, i: number) => (
          <>
            <Input
              size="small"
              value={v}
              maxLength={64}
              disabled={readOnly}
              status={faults[i] ? 'error' : undefined}
              placeholder="字母、数字、下划线"
              aria-label={`参数名${i + 1}`}
              aria-invalid={faults[i] ? true : undefined}
              onChange={(e) => update(i, { paramName: e.target.value.trim() })}
            />
            {faults[i] && !readOnly && (
              <Typography.Text type="danger" style={{ display: 'block', fontSize: 12, lineHeight: '18px' }} role="alert">
                {faults[i]}
              </Typography.Text>
            )}
          </>
        ),
      },
      {
        title: '类型',
        dataIndex: 'paramType',
        width: 120,
        render: (v: string, _r: ParamRow, i: number) => (
          <Select size="small" value={v} disabled={readOnly} style={{ width: '100%' }} aria-label={`参数类型${i + 1}`} options={types.map((t) => ({ value: t.value, label: t.label }))} onChange={(t) => update(i, { paramType: String(t) })} />
        ),
      },
      {
        title: '参数值',
        dataIndex: 'paramValue',
        render: (v: string, _r: ParamRow, i: number) => <Input size="small" value={v} maxLength={1000} disabled={readOnly} aria-label={`参数值${i + 1}`} onChange={(e) => update(i, { paramValue: e.target.value })} />,
      },
      ...(withRequired
        ? [
            {
              title: '必填',
              dataIndex: 'required',
              width: 56,
              align: 'center' as const,
              render: (v: boolean | undefined, _r: ParamRow, i: number) => <Checkbox checked={Boolean(v)} disabled={readOnly} aria-label={`必填${i + 1}`} onChange={(e) => update(i, { required: e.target.checked })} />,
            },
          ]
        : []),
      ...(withSecret
        ? [
            {
              title: '敏感',
              dataIndex: 'secret',
              width: 56,
              align: 'center' as const,
              render: (v: boolean | undefined, _r: ParamRow, i: number) => <Checkbox checked={Boolean(v)} disabled={readOnly} aria-label={`敏感${i + 1}`} onChange={(e) => update(i, { secret: e.target.checked })} />,
            },
          ]
        : []),
      ...(withComment
        ? [
            {
              title: '说明',
              dataIndex: 'paramComment',
              render: (v: string, _r: ParamRow, i: number) => <Input size="small" value={v} maxLength={255} disabled={readOnly} aria-label={`参数说明${i + 1}`} onChange={(e) => update(i, { paramComment: e.target.value })} />,
            },
          ]
        : []),
      ...(readOnly
        ? []
        : [
            {
              title: '',
              key: 'op',
              width: 40,
              render: (_v: unknown, _r: ParamRow, i: number) => <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除参数${i + 1}`} onClick={() => onChange?.(rows.filter((_x, j) => j !== i))} />,
            },
          ]),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows, readOnly, withComment, withRequired, withSecret, types],
  );

  return (
    <div className="param-table">
      <Space style={{ marginBottom: 8 }}>
        {!readOnly && mode === 'table' && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => onChange?.([...rows, { paramName: '', paramType: 'string', paramValue: '', paramComment: '' }])}>
            添加参数
          </Button>
        )}
        {withJson && (
          <Segmented
            size="small"
            value={mode}
            options={[
              { value: 'table', label: '表格' },
              { value: 'json', label: 'JSON' },
            ]}
            onChange={(m) => {
              setMode(m as 'table' | 'json');
              setJsonText(null);
              setJsonFault(null);
            }}
          />
        )}
      </Space>
      {mode === 'table' ? (
        // keyed by position: a row object changes with every keystroke, its place does not (the input keeps focus)
        // on a narrow screen the table scrolls sideways instead of squeezing each field to a sliver
        <Table size="small" rowKey="__row" pagination={false} dataSource={rows.map((r, i) => ({ ...r, __row: i }))} columns={columns} locale={{ emptyText: '暂无参数' }} scroll={{ x: 640 }} />
      ) : (
        <>
          <CodeEditor
            language="json"
            height={180}
            value={shownJson}
            readOnly={readOnly}
            onChange={(text) => {
              setJsonText(text);
              const merged = mergeJson(rows, text);
              if (typeof merged === 'string') setJsonFault(merged);
              else {
                setJsonFault(null);
                onChange?.(merged);
              }
            }}
          />
          {jsonFault && <Typography.Text type="danger">{jsonFault}</Typography.Text>}
        </>
      )}
      {withRequired && !readOnly && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4, fontSize: 12 }}>
          调用时未传的参数：必填的被拒绝（缺少必填参数），其余取参数值作为默认值，参数值为空即 NULL。{withSecret ? '勾选“敏感”（或参数名含 password、token、secret 等）的参数值不会在执行计划和审批页显示。' : ''}
        </Typography.Text>
      )}
    </div>
  );
}
