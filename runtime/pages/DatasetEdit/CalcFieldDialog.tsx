// 新增 / 编辑计算字段: name, label, type, role and the expression, checked as it is typed by the parser the server runs
// (common/dataset.ts) with its Chinese message and position, then by the server itself at 确定 (`check`: the draft
// previewed with this field), whose refusal stays at the expression; a short help of the language and the fields.
import { useEffect, useState } from 'react';
import { Alert, Col, Form, Input, Modal, Row, Select, Tag, Typography } from 'antd';
import { FIELD_NAME_RE, type DatasetField } from '../../../common/dataset';
import { exprFault, freeName, ROLE_LABELS, TYPE_LABELS } from './model';

const typeOptions = Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }));
const roleOptions = Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label }));

export interface CalcFieldDialogProps {
  open: boolean;
  /** the field edited, or null for a new one */
  editing: DatasetField | null;
  fields: DatasetField[];
  /** the server's word on the field (null: accepted), asked at 确定 */
  check: (f: DatasetField) => Promise<string | null>;
  onOk: (f: DatasetField) => void;
  onCancel: () => void;
}

export function CalcFieldDialog({ open, editing, fields, check, onOk, onCancel }: CalcFieldDialogProps) {
  const [f, setF] = useState<DatasetField>({ name: '', label: '', type: 'number', role: 'measure', expr: '' });
  const [touched, setTouched] = useState(false);
  const [checking, setChecking] = useState(false);
  /** the server's refusal and the expression it was given */
  const [refused, setRefused] = useState<{ expr: string; msg: string } | null>(null);
  useEffect(() => {
    if (!open) return;
    setF(editing ? { ...editing } : { name: freeName(fields), label: '', type: 'number', role: 'measure', expr: '' });
    setTouched(false);
    setRefused(null);
    // reset only when the dialog opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, editing]);

  const others = fields.filter((x) => x.name !== editing?.name);
  const all = [...others, f];
  const nameFault = !FIELD_NAME_RE.test(f.name) ? '字段名只能包含字母、数字和下划线，且不以数字开头' : others.some((x) => x.name === f.name) ? `字段名「${f.name}」已存在` : null;
  const labelFault = f.label.trim() ? null : '请输入标签';
  const exprText = f.expr ?? '';
  const fault = exprText.trim() ? exprFault(f, all) : '请输入表达式';
  const shownFault = refused && refused.expr === exprText ? refused.msg : fault;
  const ok = async () => {
    setTouched(true);
    if (nameFault || labelFault) return;
    const made: DatasetField = { name: f.name, label: f.label.trim(), type: f.type, role: f.role, format: f.format ?? null, expr: exprText.trim() };
    setChecking(true);
    try {
      const msg = await check(made);
      if (msg) return setRefused({ expr: exprText, msg });
    } finally {
      setChecking(false);
    }
    onOk(made);
  };
  const insert = (x: DatasetField) => setF((c) => ({ ...c, expr: `${c.expr ?? ''}${c.expr && !c.expr.endsWith(' ') ? ' ' : ''}[${x.label}]` }));

  return (
    <Modal title={editing ? '编辑计算字段' : '新增计算字段'} open={open} width={720} okText="确定" cancelText="取消" okButtonProps={{ loading: checking }} onOk={() => void ok()} onCancel={onCancel} destroyOnHidden>
      <Form layout="vertical" component="div">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item label="字段名" required validateStatus={touched && nameFault ? 'error' : undefined} help={touched ? nameFault : undefined}>
              <Input aria-label="计算字段名" value={f.name} maxLength={64} onChange={(e) => setF({ ...f, name: e.target.value })} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item label="标签" required validateStatus={touched && labelFault ? 'error' : undefined} help={touched ? labelFault : undefined}>
              <Input aria-label="计算字段标签" value={f.label} maxLength={100} placeholder="如 单价" onChange={(e) => setF({ ...f, label: e.target.value })} />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item label="类型">
              <Select aria-label="计算字段类型" value={f.type} options={typeOptions} onChange={(type) => setF({ ...f, type })} />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item label="角色">
              <Select aria-label="计算字段角色" value={f.role} options={roleOptions} onChange={(role) => setF({ ...f, role })} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label="表达式"
          required
          validateStatus={shownFault && (touched || exprText.trim()) ? 'error' : undefined}
          help={shownFault && (touched || exprText.trim()) ? <span data-testid="calc-fault">{shownFault}</span> : undefined}
        >
          <Input.TextArea aria-label="表达式" rows={3} maxLength={2000} value={exprText} placeholder="如 round([销售额] / qty, 2)" onChange={(e) => setF({ ...f, expr: e.target.value })} />
        </Form.Item>
        <div style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary">点击插入字段：</Typography.Text>
          {others
            .filter((x) => !x.expr || x.name !== f.name)
            .map((x) => (
              <Tag key={x.name} style={{ cursor: 'pointer', marginBottom: 4 }} onClick={() => insert(x)}>
                {x.label}
              </Tag>
            ))}
        </div>
        <Alert
          type="info"
          showIcon={false}
          message="表达式写法"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              <li>字段：按名称（amount）或按标签写在方括号里（[销售额]）；文本用单引号（'浙江'）</li>
              <li>运算：+ - * / %，比较 = != &lt; &lt;= &gt; &gt;=，逻辑 and / or / not</li>
              <li>函数：if(条件, 是, 否)、coalesce(a, b, …)、concat(a, b, …)、year / quarter / month / week / day(日期)、abs、round(x, 位数)、floor、ceil</li>
              <li>分支：case when 条件 then 值 … else 值 end</li>
              <li>表达式不是 SQL：不能写表、子查询、注释或分号</li>
            </ul>
          }
        />
      </Form>
    </Modal>
  );
}
