// A declared settings page (schemas/settings/<id>.settings.json, menu component settings:<id>): one value read with
// api.get and saved with api.save, shown as sections of fields (Formily, the dialogs' fields and rules); a section's
// actions send their part of the value (测试连接). Unsaved edits are not lost unasked (leave guard); without the
// edit permission the page is read-only.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, message as antdMessage, Result, Space, Spin, theme, Typography } from 'antd';
import { createForm, onFormInputChange } from '@formily/core';
import { FormProvider, type ISchema } from '@formily/react';
import { Form } from '@formily/antd-v5';
import { useLeaveGuard } from '../core/leaveGuard';
import { SchemaField } from './FormDialog';
import { settingsSchemaFor } from './dialog-schema';
import { useCrudServices } from './services';
import { parseCall } from './template';
import { runConnectionTest } from './connectionTest';
import type { Row } from './types';
import type { SettingsDeclaration } from '../../schemas/generated/settings';

export type { SettingsDeclaration };
type SettingsAction = NonNullable<SettingsDeclaration['sections'][number]['actions']>[number];
type SectionSchema = Parameters<typeof settingsSchemaFor>[0];

const files = import.meta.glob<SettingsDeclaration>('../../schemas/settings/*.settings.json', { eager: true, import: 'default' });
export const builtinSettings: Record<string, SettingsDeclaration> = Object.fromEntries(Object.entries(files).map(([path, decl]) => [path.replace(/^.*\/([^/]+)\.settings\.json$/, '$1'), decl]));

export function SettingsView({ decl }: { decl: SettingsDeclaration }) {
  const services = useCrudServices();
  const { token: tk } = theme.useToken();
  // its own message holder, bound to the page's theme (as CrudView's)
  const [message, messageHolder] = antdMessage.useMessage();
  const canEdit = !decl.perms?.edit || services.hasPermission([decl.perms.edit]);
  const [edited, setEdited] = useState(false);
  const [state, setState] = useState<{ loading: boolean; error?: string }>({ loading: true });
  const [saving, setSaving] = useState(false);
  const [running, setRunning] = useState<string | null>(null);
  const form = useMemo(() => createForm({ disabled: !canEdit, effects: () => onFormInputChange(() => setEdited(true)) }), [canEdit]);
  const schemas = useMemo(() => decl.sections.map((s) => settingsSchemaFor(s.schema as SectionSchema)), [decl]);
  useLeaveGuard(edited);

  const load = async () => {
    setState({ loading: true });
    try {
      const { method, path } = parseCall(decl.api.get, {});
      const value = await services.request<Row>(method, path);
      form.setInitialValues(value ?? {}, 'overwrite');
      form.setValues(value ?? {}, 'overwrite');
      setEdited(false);
      setState({ loading: false });
    } catch (e) {
      setState({ loading: false, error: e instanceof Error ? e.message : String(e) });
    }
  };
  useEffect(() => {
    void load();
    // loaded once per declaration
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [decl]);

  const save = async () => {
    try {
      await form.validate();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const { method, path } = parseCall(decl.api.save, {});
      const saved = await services.request<Row>(method, path, { body: form.values as Row });
      if (saved) form.setValues(saved, 'overwrite');
      setEdited(false);
      message.success('保存成功');
    } catch {
      // the request layer showed the server's reason; the edits stay
    } finally {
      setSaving(false);
    }
  };

  const run = async (a: SettingsAction) => {
    try {
      await form.validate(`${a.field}.*`);
    } catch {
      return;
    }
    setRunning(a.label + a.field);
    try {
      const { method, path } = parseCall(a.api, {});
      const { ok, text } = await runConnectionTest(services, method, path, { body: ((form.values as Row)[a.field] ?? {}) as Row }, a);
      if (ok) message.success(text);
      else message.error(text);
    } catch {
      // shown by the request layer
    } finally {
      setRunning(null);
    }
  };

  if (state.error) return <Result status="warning" title="加载失败" subTitle={state.error} extra={<Button onClick={load}>重试</Button>} />;
  return (
    <Spin spinning={state.loading}>
      {messageHolder}
      <div style={{ maxWidth: 880 }} data-testid={`settings-${decl.id}`}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {decl.title}
        </Typography.Title>
        {decl.description && <Typography.Paragraph type="secondary">{decl.description}</Typography.Paragraph>}
        {!canEdit && <Alert type="info" showIcon message="您没有修改这些设置的权限，只能查看" style={{ marginBottom: 16 }} />}
        <FormProvider form={form}>
          <Form form={form} layout="horizontal" labelCol={6} wrapperCol={16} labelWrap>
            {decl.sections.map((s, i) => (
              <Card
                key={s.title}
                title={s.title}
                size="small"
                style={{ marginBottom: 16 }}
                extra={
                  canEdit && s.actions?.length ? (
                    <Space>
                      {s.actions.map((a) => (
                        <Button key={a.label} size="small" loading={running === a.label + a.field} onClick={() => run(a)}>
                          {a.label}
                        </Button>
                      ))}
                    </Space>
                  ) : null
                }
              >
                {s.description && <Typography.Paragraph type="secondary">{s.description}</Typography.Paragraph>}
                <SchemaField schema={schemas[i] as ISchema} />
              </Card>
            ))}
          </Form>
        </FormProvider>
        {canEdit && (
          <Space style={{ position: 'sticky', bottom: 0, zIndex: 2, width: '100%', padding: '12px 0', background: tk.colorBgContainer, borderTop: `1px solid ${tk.colorBorderSecondary}` }}>
            <Button type="primary" onClick={save} loading={saving} disabled={state.loading}>
              保存
            </Button>
            <Button onClick={load} disabled={saving}>
              {edited ? '放弃修改' : '刷新'}
            </Button>
            {edited && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
          </Space>
        )}
      </div>
    </Spin>
  );
}

/** The menu's settings:<id>: the built-in declaration of that id. */
export function SettingsPageWith({ settingsId }: { settingsId: string }) {
  const decl = builtinSettings[settingsId];
  if (!decl) return <Result status="404" title="页面未找到" subTitle={`找不到设置页：${settingsId}`} />;
  return <SettingsView decl={decl} />;
}
